import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { TRPCClientError } from '@trpc/client';
import { Link, Navigate, useNavigate } from 'react-router';
import { PASSWORD_RESET_STRINGS } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { useAuth } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';
import { AuthCard } from './auth-card.tsx';

export const LOGIN_STRINGS = {
  title: 'Welcome Back',
  subtitle: 'Sign in to your account',
  submit: 'Sign In',
  busy: 'Signing In...',
  success: 'Login successful!',
  fallback: 'Login failed',
  unexpected: 'An unexpected error occurred. Please try again.',
} as const;

export function LoginPage() {
  const { user, signedIn } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const login = trpc.auth.login.useMutation();

  if (user) return <Navigate to="/dashboard" replace />;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const result = await login.mutateAsync({ email, password });
      signedIn(result.token, result.user);
      notify.success(LOGIN_STRINGS.success);
      void navigate('/dashboard', { replace: true });
    } catch (err) {
      if (err instanceof TRPCClientError && err.data?.httpStatus) setError(err.message || LOGIN_STRINGS.fallback);
      else setError(LOGIN_STRINGS.unexpected);
    }
  };

  return (
    <AuthCard title={LOGIN_STRINGS.title} subtitle={LOGIN_STRINGS.subtitle} tabTitle="Sign in">
      <form onSubmit={(e) => void onSubmit(e)} noValidate={false}>
        <Stack>
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
              {error}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setError(null);
            }}
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setError(null);
            }}
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
