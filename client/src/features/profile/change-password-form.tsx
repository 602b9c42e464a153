import { useState } from 'react';
import { Alert, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { PROFILE_STRINGS } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { errorMessage } from '../../lib/errors.ts';

interface FormValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * The Change Password tab. The form checks the match and the minimum length; the server also checks
 * settings.password_min_length and the uppercase/lowercase/number rule, and its text is shown.
 */
export function ChangePasswordForm() {
  const change = trpc.auth.changePassword.useMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: {
      currentPassword: (v) => (v ? null : 'Current password is required'),
      newPassword: (v) => (v.length >= 8 ? null : PROFILE_STRINGS.minLength),
      confirmPassword: (v, values) => (v === values.newPassword ? null : PROFILE_STRINGS.mismatch),
    },
    onValuesChange: () => setFailure(null),
  });

  const onSubmit = async (values: FormValues) => {
    setFailure(null);
    try {
      await change.mutateAsync({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      form.reset();
      notify.success(PROFILE_STRINGS.changed);
    } catch (err) {
      setFailure(errorMessage(err, PROFILE_STRINGS.changeFailed));
    }
  };

  return (
    <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
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
