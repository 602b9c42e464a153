import { useEffect } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { templateTestInput, type NotificationTemplate } from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { useSendTest } from './api.ts';

const testEmailInput = templateTestInput.pick({ test_email: true });

/** The Send Test prompt: asks for an address; Cancel (or closing) does nothing. */
export function TestSendModal({ template, onClose }: { template: NotificationTemplate | null; onClose: () => void }) {
  const { user } = useAuth();
  const form = useSchemaForm({ schema: testEmailInput, initialValues: { test_email: '' } });
  const send = useSendTest(onClose);

  useEffect(() => {
    if (!template) return;
    form.setValues({ test_email: user?.email ?? '' });
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [template, user?.email]);

  const submit = form.onSubmit(({ test_email }) => {
    if (template) send.mutate({ id: template.id, test_email });
  });

  return (
    <Modal opened={template !== null} onClose={onClose} title="Send Test Notification" size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Sends &quot;{template?.name}&quot; rendered with sample values.
          </Text>
          <TextInput label="Email address" type="email" required data-autofocus {...form.getInputProps('test_email')} />
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
