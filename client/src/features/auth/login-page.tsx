import { useState } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { TRPCClientError } from '@trpc/client';
import { Link, Navigate, useNavigate } from 'react-router';
import type { LoginInput } from '@lm/shared';
import { PASSWORD_RESET_STRINGS } from '@lm/shared/password-reset-strings';
import { useAuth } from '../../lib/auth.tsx';
import { useDeferredSchemaForm } from '../../lib/schema-form.ts';
import { AuthCard } from './auth-card.tsx';
import { LOGIN_STRINGS, useLogin } from './api.ts';

export { LOGIN_STRINGS };

export function LoginPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const login = useLogin();
  // The shared schema (and zod) loads when the form is first used, not with the page (docs/performance.md "First page").
  const {
    form,
    prepare,
    onSubmit: submitWith,
  } = useDeferredSchemaForm({
    load: () => import('@lm/shared/auth').then((m) => m.loginInput),
    initialValues: { email: '', password: '' },
  });

  if (user) return <Navigate to="/dashboard" replace />;

  const onSubmit = (input: LoginInput) => {
    setError(null);
    login.mutate(input, {
      onSuccess: () => void navigate('/dashboard', { replace: true }),
      onError: (err) =>
        setError(err instanceof TRPCClientError && err.data?.httpStatus ? err.message || LOGIN_STRINGS.fallback : LOGIN_STRINGS.unexpected),
    });
  };

  return (
    <AuthCard title={LOGIN_STRINGS.title} subtitle={LOGIN_STRINGS.subtitle} tabTitle="Sign in">
      <form
        onSubmit={submitWith(onSubmit, () => setError(LOGIN_STRINGS.unexpected))}
        onFocusCapture={prepare}
        onChange={() => setError(null)}
        noValidate
      >
        <Stack>
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
              {error}
            </Alert>
          )}
          <TextInput label="Email" type="email" name="email" autoComplete="username" withAsterisk {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            withAsterisk
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end" mt={-8}>
            <Anchor component={Link} to="/forgot-password" size="sm">
              {PASSWORD_RESET_STRINGS.forgotLink}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={false} disabled={login.isPending}>
            {login.isPending ? LOGIN_STRINGS.busy : LOGIN_STRINGS.submit}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
