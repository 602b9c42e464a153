import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { SIGN_IN_LINK_SENT, signInLinkInput, type SignInLinkInput } from '@lm/shared';
import { errorMessage } from '../../lib/errors.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { AuthCard } from './auth-card.tsx';
import { LOGIN_STRINGS, useConsumeSignInLink, useSignInLink } from './api.ts';

/**
 * /sign-in-link: without a token, asks for the address and e-mails a one-time sign-in link (the same answer whether or
 * not it has an account); with ?token=… (the e-mailed link), signs in with it once and goes to the dashboard.
 */
export function SignInLinkPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <AuthCard title={LOGIN_STRINGS.linkTitle} subtitle={LOGIN_STRINGS.linkSubtitle} tabTitle="Sign-in link">
      {token ? <ConsumeLink token={token} /> : <AskForLink />}
    </AuthCard>
  );
}

function ConsumeLink({ token }: { token: string }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const consume = useConsumeSignInLink();
  const [failure, setFailure] = useState<string | null>(null);
  // A link works once: one call, also when React runs the effect twice.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    consume.mutate(
      { token },
      {
        onSuccess: () => void navigate('/dashboard', { replace: true }),
        onError: (err) => setFailure(errorMessage(err, LOGIN_STRINGS.unexpected)),
      },
    );
  }, [consume, navigate, token]);

  if (user && !consume.isPending && !failure) return <Navigate to="/dashboard" replace />;
  if (failure) {
    return (
      <Stack>
        <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="sign-in-link-error">
          {failure}
        </Alert>
        <Anchor component={Link} to="/sign-in-link" ta="center" size="sm">
          {LOGIN_STRINGS.linkSubmit}
        </Anchor>
        <Anchor component={Link} to="/login" ta="center" size="sm">
          {LOGIN_STRINGS.backToLogin}
        </Anchor>
      </Stack>
    );
  }
  return (
    <Group gap="xs" justify="center" role="status">
      <Loader size="sm" />
      <Text size="sm">{LOGIN_STRINGS.linkSigningIn}</Text>
    </Group>
  );
}

function AskForLink() {
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const ask = useSignInLink();
  const form = useSchemaForm({ schema: signInLinkInput, initialValues: { email: '' } });

  const onSubmit = (input: SignInLinkInput) => {
    setFailure(null);
    ask.mutate(input, {
      onSuccess: () => setDone(true),
      onError: (err) => setFailure(errorMessage(err, LOGIN_STRINGS.linkFailed)),
    });
  };

  if (done) {
    return (
      <Stack>
        <Alert color="blue" icon={<IconMailCheck size={18} />} role="status" data-testid="sign-in-link-sent">
          {SIGN_IN_LINK_SENT}
        </Alert>
        <Anchor component={Link} to="/login" ta="center" size="sm">
          {LOGIN_STRINGS.backToLogin}
        </Anchor>
      </Stack>
    );
  }
  return (
    <form onSubmit={form.onSubmit(onSubmit)} onChange={() => setFailure(null)} noValidate>
      <Stack>
        {failure && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          withAsterisk
          data-autofocus
          {...form.getInputProps('email')}
        />
        <Button type="submit" fullWidth loading={ask.isPending}>
          {LOGIN_STRINGS.linkSubmit}
        </Button>
        <Text ta="center" size="sm">
          <Anchor component={Link} to="/login">
            {LOGIN_STRINGS.backToLogin}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
