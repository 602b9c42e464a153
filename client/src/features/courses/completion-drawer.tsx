import { ActionIcon, Button, Drawer, Group, Rating, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowBackUp, IconCheck, IconX } from '@tabler/icons-react';
import { COMPLETION_STRINGS, type Completion } from '@lm/shared';
import { formatDate, formatDateTime, formatHours } from '../../lib/format.ts';
import { CompletionStatusBadge } from './course-badges.tsx';
import { DetailFields } from './detail-fields.tsx';
import type { ReviewTarget } from './review-modal.tsx';
import { LinkedCertificates } from './linked-certificates.tsx';

/**
 * A completion's detail, opened from its row: the course, the person, the license the hours count toward,
 * the hours, the status and the review note; a reviewer (the course's School, an Admin) reviews from here.
 */
export function CompletionDrawer({
  completion,
  onClose,
  onReview,
}: {
  completion: Completion | null;
  onClose: () => void;
  /** Opens the review of this completion; absent when the caller may not review it. */
  onReview?: (target: ReviewTarget) => void;
}) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const c = completion;
  return (
    <Drawer
      opened={c !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'md'}
      title={
        <Title order={3} component="span">
          Completion
        </Title>
      }
    >
      {c && (
        <Stack>
          <DetailFields
            fields={[
              ['Course', c.course_name],
              ['Name', `${c.first_name} ${c.last_name}`],
              ['License', c.license_number ? `${c.license_number} (${c.license_state})` : 'None'],
              ['Completed', formatDate(c.completion_date)],
              ['Hours', formatHours(c.hours)],
              ['Rating', c.rating ? <Rating key="rating" value={c.rating} readOnly size="sm" /> : 'None'],
              ['Status', <CompletionStatusBadge key="status" status={c.status} />],
              ['Reviewed', formatDateTime(c.reviewed_at, 'Not yet')],
              ['Recorded', formatDateTime(c.created_at)],
            ]}
          />
          <Stack gap={2}>
            <Text size="xs" c="dimmed" fw={500}>
              Review note
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {c.note || 'None'}
            </Text>
          </Stack>
          <Stack gap={4}>
            <Text size="xs" c="dimmed" fw={500}>
              Certificate
            </Text>
            <LinkedCertificates completionId={c.completion_id} />
          </Stack>
          {onReview && (
            <Group gap="sm">
              {c.status !== 'Approved' && (
                <Button
                  color="green"
                  variant="light"
                  leftSection={<IconCheck size={16} />}
                  onClick={() => onReview({ completion: c, status: 'Approved' })}
                >
                  {COMPLETION_STRINGS.approve}
                </Button>
              )}
              {c.status !== 'Rejected' && (
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconX size={16} />}
                  onClick={() => onReview({ completion: c, status: 'Rejected' })}
                >
                  {COMPLETION_STRINGS.reject}
                </Button>
              )}
              {c.status !== 'Pending' && (
                <Tooltip label={COMPLETION_STRINGS.reset}>
                  <ActionIcon
                    size="lg"
                    variant="light"
                    color="gray"
                    aria-label={COMPLETION_STRINGS.reset}
                    onClick={() => onReview({ completion: c, status: 'Pending' })}
                  >
                    <IconArrowBackUp size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
