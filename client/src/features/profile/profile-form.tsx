import { useState } from 'react';
import { Alert, Button, Grid, Group, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { PROFILE_STRINGS, profileUpdateInput, type ProfileUpdateInput, type User } from '@lm/shared';
import { errorMessage, fieldErrors, httpStatus } from '../../lib/errors.ts';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { ContactFields } from '../../components/contact-fields.tsx';
import { useUpdateProfile } from './api.ts';

/** The Profile Information tab: the signed-in user's own details, saved through PUT /api/users/me/profile. */
export function ProfileForm({ user }: { user: User }) {
  const save = useUpdateProfile();
  const [failure, setFailure] = useState<string | null>(null);
  // The fields go as typed: the schema checks the names and the e-mail, and an emptied contact field clears it.
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
    },
    toInput: (values) => values,
  });

  const onSubmit = (input: ProfileUpdateInput) => {
    setFailure(null);
    const shown = form.getValues();
    save.mutate(input, {
      onSuccess: () => {
        form.setInitialValues(shown);
        form.resetDirty(shown);
      },
      onError: (err) => {
        // The field the server objects to (e.g. an email in use) shows its reason; the alert has the spec's text.
        const fields = fieldErrors(err);
        if (httpStatus(err) === 409) fields.email = errorMessage(err, PROFILE_STRINGS.updateFailed);
        form.setErrors(fields);
        setFailure(PROFILE_STRINGS.updateFailed);
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
