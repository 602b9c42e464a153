import { Button, Grid, Group, Modal, PasswordInput, Select, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DEFAULT_NEW_USER_ROLE, EMAIL_RE, ROLE, ROLE_IDS, roleName, USER_MESSAGES, USER_STRINGS, type User } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { fieldErrors } from '../../lib/errors.ts';
import { ContactFields } from '../../components/contact-fields.tsx';

export interface BrokerageOption {
  value: string;
  label: string;
}

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The user being edited; null creates a new one. */
  user: User | null;
  /** A Broker creates and edits Agents of its own brokerage only: role and brokerage are fixed. */
  brokerMode: boolean;
  /** The Broker's own brokerage, shown (read-only) in broker mode. */
  ownBrokerage: BrokerageOption | null;
  brokerageOptions: BrokerageOption[];
}

const ROLE_OPTIONS = ROLE_IDS.map((id) => ({ value: String(id), label: `${id} - ${roleName(id)}` }));
const NO_BROKERAGE = '';

interface FormValues {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  role_id: string;
  brokerage_id: string;
  phone_number: string;
  address: string;
  city: string;
  state: string;
  zip_code: string;
  is_active: boolean;
}

function initialValues(user: User | null, brokerMode: boolean, ownBrokerage: BrokerageOption | null): FormValues {
  return {
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    email: user?.email ?? '',
    password: '',
    role_id: String(user?.role_id ?? (brokerMode ? ROLE.Agent : DEFAULT_NEW_USER_ROLE)),
    brokerage_id: user
      ? user.brokerage_id === null
        ? NO_BROKERAGE
        : String(user.brokerage_id)
      : brokerMode
        ? (ownBrokerage?.value ?? '')
        : NO_BROKERAGE,
    phone_number: user?.phone_number ?? '',
    address: user?.address ?? '',
    city: user?.city ?? '',
    state: user?.state ?? '',
    zip_code: user?.zip_code ?? '',
    is_active: user?.is_active ?? true,
  };
}

function UserForm({
  user,
  brokerMode,
  ownBrokerage,
  brokerageOptions,
  onDone,
}: Omit<Props, 'opened' | 'onClose'> & { onDone: () => void }) {
  const isEdit = user !== null;
  const utils = trpc.useUtils();
  const create = trpc.users.create.useMutation();
  const update = trpc.users.update.useMutation();
  const form = useForm<FormValues>({
    initialValues: initialValues(user, brokerMode, ownBrokerage),
    validate: {
      email: (v) => (!v.trim() ? USER_MESSAGES.emailRequired : EMAIL_RE.test(v.trim()) ? null : USER_MESSAGES.emailInvalid),
      first_name: (v) => (v.trim() ? null : USER_MESSAGES.firstNameRequired),
      last_name: (v) => (v.trim() ? null : USER_MESSAGES.lastNameRequired),
      password: (v) => (!isEdit && !v ? USER_MESSAGES.passwordRequired : null),
    },
  });

  const onSubmit = async (values: FormValues) => {
    const fields = {
      first_name: values.first_name,
      last_name: values.last_name,
      email: values.email,
      phone_number: values.phone_number,
      address: values.address,
      city: values.city,
      state: values.state,
      zip_code: values.zip_code,
      is_active: values.is_active,
      // A Broker's new users are Agents of its brokerage; the server fixes the brokerage.
      ...(brokerMode
        ? isEdit
          ? {}
          : { role_id: ROLE.Agent }
        : { role_id: Number(values.role_id), brokerage_id: values.brokerage_id ? Number(values.brokerage_id) : null }),
    };
    try {
      if (isEdit) {
        // A blank password is left out so the current one is kept.
        await update.mutateAsync({ id: user.user_id, ...fields, ...(values.password ? { password: values.password } : {}) });
        notify.success(USER_STRINGS.updated);
      } else {
        await create.mutateAsync({ ...fields, password: values.password });
        notify.success(USER_STRINGS.created);
      }
      await utils.users.invalidate();
      form.reset();
      onDone();
    } catch (err) {
      form.setErrors(fieldErrors(err));
      notify.failure(err, isEdit ? USER_STRINGS.updateFailed : USER_STRINGS.createFailed);
    }
  };

  const busy = create.isPending || update.isPending;
  return (
    <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
      <Grid>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="First Name" withAsterisk data-autofocus {...form.getInputProps('first_name')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Email" type="email" withAsterisk autoComplete="off" {...form.getInputProps('email')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <PasswordInput
            label="Password"
            withAsterisk={!isEdit}
            autoComplete="new-password"
            description={isEdit ? USER_STRINGS.passwordEditHint : undefined}
            {...form.getInputProps('password')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Select
            label="Role"
            data={brokerMode ? ROLE_OPTIONS.filter((o) => o.value === String(ROLE.Agent)) : ROLE_OPTIONS}
            allowDeselect={false}
            disabled={brokerMode}
            {...form.getInputProps('role_id')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Select
            label="Brokerage"
            data={brokerMode ? (ownBrokerage ? [ownBrokerage] : []) : [{ value: NO_BROKERAGE, label: 'None' }, ...brokerageOptions]}
            allowDeselect={false}
            searchable={!brokerMode}
            disabled={brokerMode}
            nothingFoundMessage="No brokerages"
            {...form.getInputProps('brokerage_id')}
          />
        </Grid.Col>
        <ContactFields inputProps={(field) => form.getInputProps(field)} />
        <Grid.Col span={12}>
          <Switch label="Active" {...form.getInputProps('is_active', { type: 'checkbox' })} />
        </Grid.Col>
      </Grid>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {isEdit ? USER_STRINGS.updateSubmit : USER_STRINGS.createSubmit}
        </Button>
      </Group>
    </form>
  );
}

/** The add/edit modal: create mode without a selected user, edit mode with one. */
export function UserFormModal({ opened, onClose, user, ...rest }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={user ? USER_STRINGS.editTitle : USER_STRINGS.addTitle} size="lg">
      {opened && <UserForm key={user?.user_id ?? 'new'} user={user} onDone={onClose} {...rest} />}
    </Modal>
  );
}
