import { useEffect, useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { EMAIL_RE, NOTIFICATION_STRINGS, type NotificationTemplate } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { useAuth } from '../../lib/auth.tsx';

/** The Send Test prompt: asks for an address; Cancel (or closing) does nothing. */
export function TestSendModal({ template, onClose }: { template: NotificationTemplate | null; onClose: () => void }) {
  const { user } = useAuth();
  const utils = trpc.useUtils();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = trpc.admin.notifications.sendTest.useMutation();

  useEffect(() => {
    if (!template) return;
    setEmail(user?.email ?? '');
    setError(null);
  }, [template, user?.email]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!template) return;
    const address = email.trim();
    if (!EMAIL_RE.test(address)) {
      setError(NOTIFICATION_STRINGS.invalidTestEmail);
      return;
    }
    send.mutate(
      { id: template.id, test_email: address },
      {
        onSuccess: (result) => {
          void utils.admin.notifications.history.invalidate();
          // The toast says where it went: an outbox file is not a delivered e-mail.
          if (!result.success) notify.error(result.message);
          else if (result.delivery.transport === 'outbox') notify.warning(result.message);
          else notify.success(result.message);
          onClose();
        },
        onError: (err) => notify.failure(err, NOTIFICATION_STRINGS.testFailed),
      },
    );
  };

  return (
    <Modal opened={template !== null} onClose={onClose} title="Send Test Notification" size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Sends &quot;{template?.name}&quot; rendered with sample values.
          </Text>
          <TextInput
            label="Email address"
            type="email"
            required
            data-autofocus
            value={email}
            error={error}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={send.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending}>
              Send Test
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
