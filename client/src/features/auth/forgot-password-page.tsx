import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { forgotPasswordInput, PASSWORD_RESET_STRINGS, type ForgotPasswordInput } from '@lm/shared';
import { errorMessage } from '../../lib/errors.ts';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { AuthCard } from './auth-card.tsx';
import { useForgotPassword } from './api.ts';

/** /forgot-password: asks for the address; the answer is the same whether or not it has an account. */
export function ForgotPasswordPage() {
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const forgot = useForgotPassword();
  const form = useSchemaForm({ schema: forgotPasswordInput, initialValues: { email: '' } });

  const onSubmit = (input: ForgotPasswordInput) => {
    setFailure(null);
    forgot.mutate(input, {
      onSuccess: () => setDone(true),
      onError: (err) => setFailure(errorMessage(err, 'Could not send the reset link. Please try again.')),
    });
  };

  return (
    <AuthCard title={PASSWORD_RESET_STRINGS.forgotTitle} subtitle={PASSWORD_RESET_STRINGS.forgotSubtitle} tabTitle="Forgot password">
      {done ? (
        <Stack>
          <Alert color="blue" icon={<IconMailCheck size={18} />} role="status" data-testid="forgot-done">
            {PASSWORD_RESET_STRINGS.forgotDone}
          </Alert>
          <Anchor component={Link} to="/login" ta="center" size="sm">
            {PASSWORD_RESET_STRINGS.backToLogin}
          </Anchor>
        </Stack>
      ) : (
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
            <Button type="submit" fullWidth loading={forgot.isPending}>
              {PASSWORD_RESET_STRINGS.forgotSubmit}
            </Button>
            <Text ta="center" size="sm">
              <Anchor component={Link} to="/login">
                {PASSWORD_RESET_STRINGS.backToLogin}
              </Anchor>
            </Text>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
