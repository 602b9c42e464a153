import { useState } from 'react';
import { Alert, Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { PROFILE_STRINGS } from '@lm/shared';
import { errorMessage } from '../../lib/errors.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useDocumentTitle } from '../../lib/public-settings.ts';
import { trpc } from '../../lib/trpc.ts';
import { useEmailLink } from './api.ts';

const TEXT = {
  confirm: {
    title: PROFILE_STRINGS.confirmTitle,
    intro: 'Confirm that this address should become the sign-in email of your account.',
    submit: 'Confirm my new email',
  },
  undo: {
    title: PROFILE_STRINGS.undoTitle,
    intro:
      'If you did not change your sign-in email, undo it: your previous address comes back, everyone is signed out, and we email you a link to choose a new password.',
    submit: 'Undo the change and secure my account',
  },
} as const;

/**
 * /email-change/confirm?token=… and /email-change/undo?token=… (docs/security.md "Re-authentication and stolen
 * tokens"), signed in or not. Nothing happens until the button is pressed: mail scanners open links on their own.
 */
export function EmailChangePage({ kind }: { kind: 'confirm' | 'undo' }) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const text = TEXT[kind];
  useDocumentTitle(text.title);
  const link = useEmailLink(kind);
  const { user, logout } = useAuth();
  const utils = trpc.useUtils();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = () => {
    setFailure(null);
    link.mutate(
      { token },
      {
        onSuccess: (r) => {
          setDone(r.message);
          // An undo signs everyone out, this browser included; a confirmation changes the signed-in user's e-mail.
          if (kind === 'undo' && user) void logout();
          if (kind === 'confirm' && user) void utils.auth.me.invalidate();
        },
        onError: (err) => setFailure(errorMessage(err, 'This link did not work. Please try again.')),
      },
    );
  };

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="md" p="xl" radius="md" w="100%" maw={460}>
        <Stack>
          <Title order={2} size="h3">
            {text.title}
          </Title>
          {!token ? (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {PROFILE_STRINGS.linkMissing}
            </Alert>
          ) : done ? (
            <Alert color="green" icon={<IconCheck size={18} />} role="status" data-testid="email-link-done">
              {done}
            </Alert>
          ) : (
            <>
              <Text size="sm">{text.intro}</Text>
              {failure && (
                <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="email-link-error">
                  {failure}
                </Alert>
              )}
              <Button onClick={submit} loading={link.isPending} color={kind === 'undo' ? 'red' : undefined}>
                {text.submit}
              </Button>
            </>
          )}
          <Text ta="center" size="sm">
            <Anchor component={Link} to={user && kind === 'confirm' ? '/profile' : '/login'}>
              {user && kind === 'confirm' ? 'Back to your profile' : 'Go to sign in'}
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
