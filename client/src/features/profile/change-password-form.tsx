import { useState } from 'react';
import { Alert, Button, CopyButton, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCalendar, IconCheck, IconCopy } from '@tabler/icons-react';
import { changePasswordForm, PROFILE_STRINGS, type ChangePasswordOutput } from '@lm/shared';
import { errorMessage } from '../../lib/errors.ts';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { useChangePassword, useRotateCalendarLink } from './api.ts';

/**
 * After a change: how many other sessions were signed out, and (when the user has a calendar link) the offer to get
 * a new one, since whoever had the old link can still read it (docs/security.md "Re-authentication and stolen tokens").
 */
function AfterChange({ result }: { result: ChangePasswordOutput }) {
  const rotate = useRotateCalendarLink();
  const [url, setUrl] = useState<string | null>(null);
  return (
    <Alert color="green" icon={<IconCheck size={18} />} role="status" data-testid="password-changed">
      <Stack gap="xs">
        <Text size="sm">{PROFILE_STRINGS.otherSessionsEnded(result.other_sessions_ended)}</Text>
        {result.calendar_feed_active && !url && (
          <>
            <Text size="sm">{PROFILE_STRINGS.calendarOffer}</Text>
            <Button
              variant="light"
              w="fit-content"
              leftSection={<IconCalendar size={16} />}
              loading={rotate.isPending}
              onClick={() => rotate.mutate(undefined, { onSuccess: (r) => setUrl(r.url) })}
            >
              {PROFILE_STRINGS.calendarRotate}
            </Button>
          </>
        )}
        {url && (
          <Stack gap={4}>
            <TextInput label="Your new calendar link (shown once)" value={url} readOnly onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Button
                  variant="light"
                  w="fit-content"
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          </Stack>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * The Change Password tab. The form checks that the fields are filled and the confirmation matches
 * (changePasswordForm); the length and strength rule is the server's (settings.password_min_length), and its
 * text is shown in the alert, so the rule has one source.
 */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<ChangePasswordOutput | null>(null);
  const form = useSchemaForm({
    schema: changePasswordForm,
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) => {
    setFailure(null);
    setResult(null);
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (r) => {
          form.reset();
          setResult(r);
        },
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
        {result && <AfterChange result={result} />}
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
