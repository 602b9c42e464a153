import { useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_RESET_STRINGS, PROFILE_STRINGS, resetPasswordForm, type ResetPasswordForm } from '@lm/shared';
import { errorMessage } from '../../lib/errors.ts';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { AuthCard } from './auth-card.tsx';
import { useResetPassword } from './api.ts';

/** /reset-password?token=…: the link of the welcome or reset e-mail; sets the password, then back to sign-in. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [failure, setFailure] = useState<string | null>(null);
  // The schema checks the token, the filled fields and the match; the length and strength rule is the server's
  // (settings.password_min_length) and its text shows in the alert, as on the Change Password tab.
  const form = useSchemaForm({
    schema: resetPasswordForm,
    initialValues: { newPassword: '', confirmPassword: '' },
    toInput: (values) => ({ ...values, token }),
  });

  const onSubmit = ({ newPassword }: ResetPasswordForm) => {
    setFailure(null);
    reset.mutate(
      { token, newPassword },
      {
        onSuccess: () => void navigate('/login', { replace: true }),
        onError: (err) => setFailure(errorMessage(err, PASSWORD_RESET_STRINGS.resetFailed)),
      },
    );
  };

  return (
    <AuthCard title={PASSWORD_RESET_STRINGS.resetTitle} subtitle={PASSWORD_RESET_STRINGS.resetSubtitle} tabTitle="Choose a new password">
      {!token ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
          {PASSWORD_RESET_STRINGS.missingToken}{' '}
          <Anchor component={Link} to="/forgot-password">
            {PASSWORD_RESET_STRINGS.forgotLink}
          </Anchor>
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit(onSubmit)} onChange={() => setFailure(null)} noValidate>
          <Stack>
            {failure && (
              <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="reset-error">
                {failure}
              </Alert>
            )}
            <PasswordInput
              label="New Password"
              withAsterisk
              autoComplete="new-password"
              description={PROFILE_STRINGS.hint}
              data-autofocus
              {...form.getInputProps('newPassword')}
            />
            <PasswordInput
              label="Confirm New Password"
              withAsterisk
              autoComplete="new-password"
              {...form.getInputProps('confirmPassword')}
            />
            <Button type="submit" fullWidth loading={reset.isPending}>
              {PASSWORD_RESET_STRINGS.resetSubmit}
            </Button>
            <Text ta="center" size="sm">
              <Anchor component={Link} to="/forgot-password">
                Ask for a new link
              </Anchor>
              {' · '}
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
