import { useState } from 'react';
import { Alert, Anchor, Button, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconClock } from '@tabler/icons-react';
import { TRPCClientError } from '@trpc/client';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import type { LoginInput } from '@lm/shared';
import { PASSWORD_RESET_STRINGS } from '@lm/shared/password-reset-strings';
import { useAuth } from '../../lib/auth.tsx';
import { useDeferredSchemaForm } from '../../lib/schema-form.ts';
import { AuthCard } from './auth-card.tsx';
import { LOGIN_STRINGS, useLogin, useLoginChallenge } from './api.ts';

export { LOGIN_STRINGS };

/** Said on the sign-in page after the server ended the session (a 401), until the next sign-in. */
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

/**
 * Where to go after signing in: the page the person was on when the session ended, or the link they opened while
 * signed out (path and query, kept by app/app.tsx), else the dashboard. Only paths of this app.
 */
function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/login')) return '/dashboard';
  return from === '/' ? '/dashboard' : from;
}

export function LoginPage() {
  const { user, sessionExpired } = useAuth();
  const navigate = useNavigate();
  const target = returnPath(useLocation().state);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const login = useLogin();
  const challenge = useLoginChallenge();
  // The shared schema (and zod) loads when the form is first used, not with the page (docs/performance.md "First page").
  const {
    form,
    prepare,
    onSubmit: submitWith,
  } = useDeferredSchemaForm({
    load: () => import('@lm/shared/auth').then((m) => m.loginInput),
    initialValues: { email: '', password: '' },
  });

  if (user) return <Navigate to={target} replace />;

  const failed = (err: unknown) =>
    setError(err instanceof TRPCClientError && err.data?.httpStatus ? err.message || LOGIN_STRINGS.fallback : LOGIN_STRINGS.unexpected);

  /**
   * Signs in; when refused 429 (strangers locked the account against new devices, or the server is busy with them),
   * solves a sign-in challenge for this e-mail and tries once more with it (docs/security.md "Sign-in").
   */
  const onSubmit = async (input: LoginInput) => {
    setError(null);
    try {
      await login.mutateAsync(input);
      void navigate(target, { replace: true });
      return;
    } catch (err) {
      if (!(err instanceof TRPCClientError) || err.data?.httpStatus !== 429) return failed(err);
    }
    setChecking(true);
    try {
      const { solveLoginChallenge } = await import('./login-challenge.ts');
      const solution = await solveLoginChallenge((await challenge.mutateAsync({ email: input.email })).challenge);
      if (!solution) return setError(LOGIN_STRINGS.unexpected);
      await login.mutateAsync({ ...input, solution });
      void navigate(target, { replace: true });
    } catch (err) {
      failed(err);
    } finally {
      setChecking(false);
    }
  };
  const busy = login.isPending || checking;

  return (
    <AuthCard title={LOGIN_STRINGS.title} subtitle={LOGIN_STRINGS.subtitle} tabTitle="Sign in">
      <form
        onSubmit={submitWith(
          (input) => void onSubmit(input),
          () => setError(LOGIN_STRINGS.unexpected),
        )}
        onFocusCapture={prepare}
        onChange={() => setError(null)}
        noValidate
      >
        <Stack>
          {sessionExpired && !error && (
            <Alert color="yellow" icon={<IconClock size={18} />} role="status" data-testid="session-expired">
              {SESSION_EXPIRED}
            </Alert>
          )}
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
              {error}
            </Alert>
          )}
          {checking && (
            <Group gap="xs" role="status" data-testid="login-checking">
              <Loader size="xs" />
              <Text size="sm">{LOGIN_STRINGS.checking}</Text>
            </Group>
          )}
          <TextInput label="Email" type="email" name="email" autoComplete="username" withAsterisk {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            withAsterisk
            {...form.getInputProps('password')}
          />
          <Group justify="space-between" mt={-8}>
            <Anchor component={Link} to="/sign-in-link" size="sm">
              {LOGIN_STRINGS.linkOffer}
            </Anchor>
            <Anchor component={Link} to="/forgot-password" size="sm">
              {PASSWORD_RESET_STRINGS.forgotLink}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={false} disabled={busy}>
            {busy ? LOGIN_STRINGS.busy : LOGIN_STRINGS.submit}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
