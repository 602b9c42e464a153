import { useState } from 'react';
import { Alert, Button, Grid, Group, PasswordInput, TextInput } from '@mantine/core';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { PROFILE_STRINGS, profileUpdateInput, type ProfileUpdateInput, type User } from '@lm/shared';
import { errorMessage, fieldErrors, httpStatus } from '../../lib/errors.ts';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { ContactFields } from '../../components/contact-fields.tsx';
import { useUpdateProfile } from './api.ts';

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The Profile Information tab: the signed-in user's own details, saved through PUT /api/users/me/profile. A new
 * sign-in e-mail asks for the current password and takes effect from the link sent to it (docs/security.md
 * "Re-authentication and stolen tokens"): the form says so and keeps showing the current address.
 */
export function ProfileForm({ user }: { user: User }) {
  const save = useUpdateProfile();
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  // The fields go as typed: the schema checks the names and the e-mail, and an emptied contact field clears it.
  // The current password goes only with a new e-mail.
  const form = useSchemaForm({
    schema: profileUpdateInput,
    initialValues: {
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      phone_number: user.phone_number ?? '',
      address: user.address ?? '',
      city: user.city ?? '',
      state: user.state ?? '',
      zip_code: user.zip_code ?? '',
      currentPassword: '',
    },
    toInput: ({ currentPassword, ...values }) =>
      sameEmail(values.email, user.email) ? values : { ...values, currentPassword: currentPassword || undefined },
  });
  const emailChanging = !sameEmail(form.getValues().email, user.email);

  const onSubmit = (input: ProfileUpdateInput) => {
    setFailure(null);
    setPending(null);
    if (input.currentPassword === undefined && !sameEmail(input.email, user.email)) {
      form.setFieldError('currentPassword', PROFILE_STRINGS.emailNeedsPassword);
      return;
    }
    save.mutate(input, {
      onSuccess: (updated) => {
        // A new e-mail is only asked for: the form shows the address that still signs in.
        if (!sameEmail(input.email, updated.email)) setPending(input.email);
        const shown = { ...form.getValues(), email: updated.email, currentPassword: '' };
        form.setValues(shown);
        form.setInitialValues(shown);
        form.resetDirty(shown);
      },
      onError: (err) => {
        // The field the server objects to (e.g. a wrong current password) shows its reason; a lock shows its own text.
        form.setErrors(fieldErrors(err));
        setFailure(httpStatus(err) === 429 ? errorMessage(err, PROFILE_STRINGS.updateFailed) : PROFILE_STRINGS.updateFailed);
      },
    });
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} onChange={() => setFailure(null)} noValidate>
      {failure && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" mb="md" data-testid="profile-error">
          {failure}
        </Alert>
      )}
      {pending && (
        <Alert color="blue" icon={<IconMailForward size={18} />} role="status" mb="md" data-testid="email-change-pending">
          {PROFILE_STRINGS.emailPending(pending)}
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
        </Grid.Col>
        {emailChanging && (
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <PasswordInput
              label={PROFILE_STRINGS.currentPasswordLabel}
              withAsterisk
              autoComplete="current-password"
              description={PROFILE_STRINGS.emailPasswordHint}
              {...form.getInputProps('currentPassword')}
            />
          </Grid.Col>
        )}
        <ContactFields inputProps={(field) => form.getInputProps(field)} />
      </Grid>
      <Group justify="flex-end" mt="lg">
        <Button type="submit" loading={save.isPending}>
          {PROFILE_STRINGS.updateSubmit}
        </Button>
      </Group>
    </form>
  );
}
