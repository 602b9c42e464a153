import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { COMPLETION_STRINGS, type Completion, type CompletionStatus } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { formatDate, formatHours } from '../../lib/format.ts';

const COPY: Record<CompletionStatus, { title: string; button: string; color: string; toast: string; effect: string }> = {
  Approved: {
    title: COMPLETION_STRINGS.approveTitle,
    button: COMPLETION_STRINGS.approve,
    color: 'green',
    toast: COMPLETION_STRINGS.approved,
    effect: 'The hours will be added to the license.',
  },
  Rejected: {
    title: COMPLETION_STRINGS.rejectTitle,
    button: COMPLETION_STRINGS.reject,
    color: 'red',
    toast: COMPLETION_STRINGS.rejected,
    effect: 'The hours will not count toward the license.',
  },
  Pending: {
    title: COMPLETION_STRINGS.resetTitle,
    button: COMPLETION_STRINGS.reset,
    color: 'yellow',
    toast: COMPLETION_STRINGS.reopened,
    effect: 'The completion will wait for a new review.',
  },
};

/** Approve, reject (with a note) or reopen one completion. */
export function ReviewModal({
  target,
  onClose,
}: {
  target: { completion: Completion; status: CompletionStatus } | null;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const [note, setNote] = useState('');
  useEffect(() => {
    if (target) setNote(target.completion.note ?? '');
  }, [target]);
  const review = trpc.completions.review.useMutation();
  const copy = target ? COPY[target.status] : COPY.Approved;
  const c = target?.completion;
  const takesBack = c?.status === 'Approved' && target?.status !== 'Approved' && c.license_id !== null;

  const submit = () => {
    if (!target) return;
    review.mutate(
      { id: target.completion.completion_id, status: target.status, note },
      {
        onSuccess: () => {
          notify.success(copy.toast);
          void utils.completions.list.invalidate();
          void utils.completions.myLicenses.invalidate();
          void utils.courses.list.invalidate();
          onClose();
        },
        onError: (err) => notify.failure(err, COMPLETION_STRINGS.reviewFailed),
      },
    );
  };

  return (
    <Modal opened={target !== null} onClose={onClose} title={copy.title}>
      {c && (
        <Stack>
          <Text size="sm">
            <b>
              {c.first_name} {c.last_name}
            </b>{' '}
            completed <b>{c.course_name}</b> ({formatHours(c.hours)} h) on {formatDate(c.completion_date)}
            {c.license_number ? ` for license ${c.license_number}` : ''}.
          </Text>
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
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={review.isPending}>
              Cancel
            </Button>
            <Button color={copy.color} onClick={submit} disabled={review.isPending}>
              {review.isPending ? COMPLETION_STRINGS.saving : copy.button}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
