import { useState } from 'react';
import { Alert, Button, Grid, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { EMAIL_RE, PROFILE_STRINGS, USER_MESSAGES, type User } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { errorMessage, fieldErrors, httpStatus } from '../../lib/errors.ts';
import { ContactFields } from '../../components/contact-fields.tsx';

interface FormValues {
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  address: string;
  city: string;
  state: string;
  zip_code: string;
}

/** The Profile Information tab: the signed-in user's own details, saved through PUT /api/users/me/profile. */
export function ProfileForm({ user }: { user: User }) {
  const utils = trpc.useUtils();
  const save = trpc.users.updateProfile.useMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<FormValues>({
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
    validate: {
      first_name: (v) => (v.trim() ? null : USER_MESSAGES.firstNameRequired),
      last_name: (v) => (v.trim() ? null : USER_MESSAGES.lastNameRequired),
      email: (v) => (!v.trim() ? USER_MESSAGES.emailRequired : EMAIL_RE.test(v.trim()) ? null : USER_MESSAGES.emailInvalid),
    },
    onValuesChange: () => setFailure(null),
  });

  const onSubmit = async (values: FormValues) => {
    setFailure(null);
    try {
      const updated = await save.mutateAsync(values);
      utils.auth.me.setData(undefined, updated);
      form.setInitialValues(values);
      form.resetDirty(values);
      notify.success(PROFILE_STRINGS.updated);
    } catch (err) {
      // The field the server objects to (e.g. an email in use) shows its reason; the alert has the spec's text.
      const fields = fieldErrors(err);
      if (httpStatus(err) === 409) fields.email = errorMessage(err, PROFILE_STRINGS.updateFailed);
      form.setErrors(fields);
      setFailure(PROFILE_STRINGS.updateFailed);
    }
  };

  return (
    <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
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
