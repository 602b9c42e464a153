import { useEffect } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { COMPLETION_STRINGS, completionReviewInput, type Completion, type CompletionStatus } from '@lm/shared';
import { formatDate, formatHours } from '../../lib/format.ts';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useReviewCompletion } from './api.ts';
import { LinkedCertificates } from './linked-certificates.tsx';

export type ReviewTarget = { completion: Completion; status: CompletionStatus };

const COPY: Record<CompletionStatus, { title: string; button: string; color: string; effect: string }> = {
  Approved: {
    title: COMPLETION_STRINGS.approveTitle,
    button: COMPLETION_STRINGS.approve,
    color: 'green',
    effect: 'The hours will be added to the license.',
  },
  Rejected: {
    title: COMPLETION_STRINGS.rejectTitle,
    button: COMPLETION_STRINGS.reject,
    color: 'red',
    effect: 'The hours will not count toward the license.',
  },
  Pending: {
    title: COMPLETION_STRINGS.resetTitle,
    button: COMPLETION_STRINGS.reset,
    color: 'yellow',
    effect: 'The completion will wait for a new review.',
  },
};

/** Approve, reject (with a note) or reopen one completion; the note is checked by the shared review schema. */
export function ReviewModal({
  target,
  onClose,
  onReviewed,
}: {
  target: ReviewTarget | null;
  onClose: () => void;
  onReviewed?: (c: Completion) => void;
}) {
  const form = useSchemaForm({
    schema: completionReviewInput,
    initialValues: { note: '' },
    toInput: (v) => ({ id: target?.completion.completion_id, status: target?.status, note: v.note }),
  });
  useEffect(() => {
    if (target) form.setValues({ note: target.completion.note ?? '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);
  const review = useReviewCompletion();
  const copy = target ? COPY[target.status] : COPY.Approved;
  const c = target?.completion;
  const takesBack = c?.status === 'Approved' && target?.status !== 'Approved' && c.license_id !== null;

  const submit = form.onSubmit((input) =>
    review.mutate(input, {
      onSuccess: (updated) => {
        onReviewed?.(updated);
        onClose();
      },
      onError: (err) => showServerErrors(form, err),
    }),
  );

  return (
    <Modal opened={target !== null} onClose={onClose} title={copy.title} size={target?.status === 'Approved' ? 'lg' : 'md'}>
      {c && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">
              <b>
                {c.first_name} {c.last_name}
              </b>{' '}
              completed <b>{c.course_name}</b> ({formatHours(c.hours)} h) on {formatDate(c.completion_date)}
              {c.license_number ? ` for license ${c.license_number}` : ''}.
            </Text>
            <Stack gap={4}>
              <Title order={3} size="h6">
                Certificate
              </Title>
              <LinkedCertificates completionId={c.completion_id} />
            </Stack>
            {c.license_id !== null && (
              <Text size="sm" c="dimmed">
                {takesBack ? 'The approved hours will be taken back from the license.' : copy.effect}
              </Text>
            )}
            <Textarea
              label="Note"
              placeholder={target?.status === 'Rejected' ? 'Why the completion is rejected' : 'Optional'}
              autosize
              minRows={2}
              maxLength={1000}
              data-autofocus
              {...form.getInputProps('note')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} disabled={review.isPending}>
                Cancel
              </Button>
              <Button type="submit" color={copy.color} disabled={review.isPending}>
                {review.isPending ? COMPLETION_STRINGS.saving : copy.button}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
