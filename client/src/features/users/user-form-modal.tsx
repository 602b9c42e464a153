import { Button, Grid, Group, PasswordInput, Select, Switch, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { USER_STRINGS, userCreateInput, userUpdateInput, type User } from '@lm/shared';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useDirtyGuard } from '../../lib/dirty-guard.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { ContactFields } from '../../components/contact-fields.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { ServerSearchSelect } from '../../components/server-search-select.tsx';
import { brokerageOption, useBrokeragePicker, useCreateUser, useUpdateUser } from './api.ts';
import { initialValues, NO_BROKERAGE, ROLE_OPTIONS, toInput, type BrokerageOption } from './user-form-values.ts';

export type { BrokerageOption };

type UserCreateOutput = z.output<typeof userCreateInput>;
type UserUpdateOutput = z.output<typeof userUpdateInput>;

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The user being edited; null creates a new one. */
  user: User | null;
  /** A Broker creates and edits Agents of its own brokerage only: role and brokerage are fixed. */
  brokerMode: boolean;
  /** The Broker's own brokerage, shown (read-only) in broker mode. */
  ownBrokerage: BrokerageOption | null;
}

function UserForm({ user, brokerMode, ownBrokerage, onDone }: Omit<Props, 'opened' | 'onClose'> & { onDone: () => void }) {
  const isEdit = user !== null;
  // The roles the caller may give (the policy's users.grantRole: a Broker only Agent).
  const { can } = useAuth();
  const create = useCreateUser();
  const update = useUpdateUser();
  // The schema checks the required fields with the messages of docs/product.md; a blank password on edit keeps
  // the current one; the password's strength is the server's (its settings).
  const form = useSchemaForm({
    schema: isEdit ? userUpdateInput : userCreateInput,
    initialValues: initialValues(user, brokerMode, ownBrokerage),
    toInput: (values) => toInput(values, user, brokerMode),
  });
  // Escape or × on a filled form, or leaving the page, asks first (components/form-modal.tsx).
  useDirtyGuard(form.isDirty());

  const onSubmit = (input: UserUpdateOutput | UserCreateOutput) => {
    const done = {
      onSuccess: () => {
        form.reset();
        onDone();
      },
      onError: (err: unknown) => void showServerErrors(form, err),
    };
    if ('id' in input) update.mutate(input, done);
    else create.mutate(input, done);
  };

  const busy = create.isPending || update.isPending;
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
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
            data={ROLE_OPTIONS.filter((o) => can('users.grantRole', { role_id: Number(o.value) }))}
            allowDeselect={false}
            disabled={brokerMode}
            {...form.getInputProps('role_id')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          {brokerMode ? (
            <Select label="Brokerage" data={ownBrokerage ? [ownBrokerage] : []} disabled {...form.getInputProps('brokerage_id')} />
          ) : (
            <ServerSearchSelect<{ brokerage_id: number; name: string }>
              label="Brokerage"
              fixed={[{ value: NO_BROKERAGE, label: 'None' }]}
              allowDeselect={false}
              emptyMessage="No brokerages"
              useResults={useBrokeragePicker}
              toOption={brokerageOption}
              value={form.values.brokerage_id}
              onChange={(v) => form.setFieldValue('brokerage_id', v ?? NO_BROKERAGE)}
              error={form.errors.brokerage_id}
            />
          )}
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
    <FormModal opened={opened} onClose={onClose} title={user ? USER_STRINGS.editTitle : USER_STRINGS.addTitle} size="lg">
      {opened && <UserForm key={user?.user_id ?? 'new'} user={user} onDone={onClose} {...rest} />}
    </FormModal>
  );
}
