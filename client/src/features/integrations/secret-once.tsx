import { Alert, Button, Code, CopyButton, Group, Stack } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

/** The words of one SecretOnce: its warning and its buttons (API_KEY_STRINGS, WEBHOOK_STRINGS). */
export interface SecretOnceStrings {
  copy: string;
  copied: string;
  done: string;
}

/**
 * A secret the server shows once (a new API key, a webhook's signing secret): the warning that it will not be shown
 * again, the secret, a copy button and Done.
 */
export function SecretOnce({
  secret,
  warning,
  strings,
  testId,
  onDone,
}: {
  secret: string;
  warning: string;
  strings: SecretOnceStrings;
  testId: string;
  onDone: () => void;
}) {
  return (
    <Stack>
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title={warning} />
      <Code block data-testid={testId} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {secret}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="light" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
              {copied ? strings.copied : strings.copy}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone} data-autofocus>
          {strings.done}
        </Button>
      </Group>
    </Stack>
  );
}
