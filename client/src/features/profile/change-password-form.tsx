import { useState } from 'react';
import { Alert, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { changePasswordForm, PROFILE_STRINGS } from '@lm/shared';
import { errorMessage } from '../../lib/errors.ts';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { useChangePassword } from './api.ts';

/**
 * The Change Password tab. The form checks that the fields are filled and the confirmation matches
 * (changePasswordForm); the length and strength rule is the server's (settings.password_min_length), and its
 * text is shown in the alert, so the rule has one source.
 */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useSchemaForm({
    schema: changePasswordForm,
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) => {
    setFailure(null);
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => form.reset(),
        onError: (err) => setFailure(errorMessage(err, PROFILE_STRINGS.changeFailed)),
      },
    );
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} onChange={() => setFailure(null)} noValidate>
      <Stack maw={420}>
        {failure && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="password-error">
            {failure}
          </Alert>
        )}
        <PasswordInput label="Current Password" withAsterisk autoComplete="current-password" {...form.getInputProps('currentPassword')} />
        <PasswordInput
          label="New Password"
          withAsterisk
          autoComplete="new-password"
          description={PROFILE_STRINGS.hint}
          {...form.getInputProps('newPassword')}
        />
        <PasswordInput label="Confirm New Password" withAsterisk autoComplete="new-password" {...form.getInputProps('confirmPassword')} />
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            {PROFILE_STRINGS.changeSubmit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
