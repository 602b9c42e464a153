import { useState } from 'react';
import { Badge, Button, Checkbox, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconKey, IconPlus, IconX } from '@tabler/icons-react';
import { API_KEY_STRINGS, apiKeyCreateInput, type ApiKey, type ApiKeyCreated, type ApiKeyScope } from '@lm/shared';
import { SectionCard } from './section-card.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { RowActionButtons } from '../../components/row-actions.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { confirm } from '../../components/confirm.ts';
import { useListState } from '../../lib/use-url-state.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useDirtyGuard } from '../../lib/dirty-guard.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { SecretOnce } from './secret-once.tsx';
import { ServerSearchSelect } from '../../components/server-search-select.tsx';
import { useApiKeysPage, useCreateApiKey, useKeyBrokeragePicker, useRevokeApiKey } from './api.ts';

const S = API_KEY_STRINGS;

type FormValues = { name: string; write: boolean; brokerage: string };
const NEW_KEY: FormValues = { name: '', write: false, brokerage: '' };

function CreateKeyForm({ onCreated, onCancel }: { onCreated: (key: ApiKeyCreated) => void; onCancel: () => void }) {
  const { can } = useAuth();
  // Only an Admin names a brokerage (or none: every brokerage); a Broker's key is always for its own.
  const picksBrokerage = can('brokerages.read');
  const create = useCreateApiKey();
  const form = useSchemaForm({
    schema: apiKeyCreateInput,
    initialValues: NEW_KEY,
    toInput: (v) => ({
      name: v.name,
      scopes: (v.write ? ['read', 'write'] : ['read']) satisfies ApiKeyScope[],
      ...(picksBrokerage ? { brokerage_id: v.brokerage === '' ? null : Number(v.brokerage) } : {}),
    }),
  });
  useDirtyGuard(form.isDirty());
  // A Broker may create read keys only (the policy's 'apiKeys.create' rule): the write box is not offered.
  const mayWrite = can('apiKeys.create', { scopes: ['write'], brokerage_id: null });

  return (
    <form
      onSubmit={form.onSubmit((input) =>
        create.mutate(input, {
          onSuccess: (key) => {
            form.reset();
            onCreated(key);
          },
          onError: (err) => void showServerErrors(form, err),
        }),
      )}
      noValidate
    >
      <Stack>
        <TextInput label={S.name} placeholder={S.namePlaceholder} withAsterisk data-autofocus {...form.getInputProps('name')} />
        <Checkbox.Group
          label={S.scopes}
          description={S.scopeHelp}
          value={['read', ...(form.values.write ? ['write'] : [])]}
          onChange={(scopes) => form.setFieldValue('write', scopes.includes('write'))}
        >
          <Group mt="xs">
            <Checkbox value="read" label={S.scopeRead} disabled />
            {mayWrite && <Checkbox value="write" label={S.scopeWrite} />}
          </Group>
        </Checkbox.Group>
        {picksBrokerage && (
          <ServerSearchSelect<{ brokerage_id: number; name: string }>
            label={S.brokerage}
            description={S.brokerageHelp}
            fixed={[{ value: '', label: S.brokerageAll }]}
            emptyMessage="No brokerages"
            useResults={useKeyBrokeragePicker}
            toOption={(b) => ({ value: String(b.brokerage_id), label: b.name })}
            allowDeselect={false}
            value={form.values.brokerage}
            onChange={(v) => form.setFieldValue('brokerage', v ?? '')}
            error={form.errors.brokerage_id ?? form.errors.brokerage}
          />
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            {S.createSubmit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Settings › Integrations: the API keys section (Admin: every key; Broker: its brokerage's read keys). */
export function ApiKeysSection() {
  const { can } = useAuth();
  const list = useListState({ sort: 'created_at', order: 'desc', limit: 20, filters: {} });
  const query = useApiKeysPage({ page: list.page, limit: list.limit });
  const revoke = useRevokeApiKey();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const close = () => {
    setOpen(false);
    setCreated(null);
  };

  const onRevoke = async (k: ApiKey) => {
    if (!(await confirm(S.revokeConfirm(k.name), { title: S.revokeConfirmTitle, confirmLabel: S.revoke, danger: true }))) return;
    revoke.mutate({ id: k.api_key_id });
  };

  return (
    <SectionCard
      id="api-keys-title"
      icon={<IconKey size={20} aria-hidden />}
      title={S.title}
      intro={S.intro}
      action={
        can('apiKeys.create') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen(true)}>
            {S.create}
          </Button>
        )
      }
    >
      <ListTable<ApiKey>
        things={S.things}
        query={query}
        records={query.data?.api_keys}
        total={query.data?.pagination.total ?? 0}
        idAccessor="api_key_id"
        list={list}
        emptyText={S.empty}
        fallback={S.fetchFailed}
        actions={(k) =>
          k.revoked_at === null && can('apiKeys.revoke', k) ? (
            <RowActionButtons
              actions={[{ label: S.revoke, icon: IconX, color: 'red', onClick: () => void onRevoke(k), name: `${S.revoke} ${k.name}` }]}
            />
          ) : null
        }
        columns={[
          {
            accessor: 'name',
            title: S.columns.name,
            render: (k) => (
              <Text size="sm" fw={500}>
                {k.name}
              </Text>
            ),
          },
          { accessor: 'prefix', title: S.columns.prefix, noWrap: true, render: (k) => <Code>{`lmk_${k.prefix}_…`}</Code> },
          {
            accessor: 'scopes',
            title: S.columns.scopes,
            render: (k) => (
              <Group gap={4}>
                {k.scopes.map((s) => (
                  <Badge key={s} variant="light" color={s === 'write' ? 'orange' : 'blue'}>
                    {s === 'write' ? S.scopeWrite : S.scopeRead}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { accessor: 'brokerage_name', title: S.columns.brokerage, render: (k) => k.brokerage_name ?? S.allBrokerages },
          { accessor: 'last_used_at', title: S.columns.lastUsed, render: (k) => formatDateTime(k.last_used_at, S.never) },
          { accessor: 'created_at', title: S.columns.created, render: (k) => `${formatDate(k.created_at)} · ${k.created_by_name ?? ''}` },
          {
            accessor: 'revoked_at',
            title: S.columns.status,
            render: (k) =>
              k.revoked_at ? (
                <Badge color="gray" variant="light" title={formatDateTime(k.revoked_at)}>
                  {S.revoked}
                </Badge>
              ) : (
                <Badge color="green" variant="light">
                  {S.active}
                </Badge>
              ),
          },
        ]}
      />
      <FormModal opened={open} onClose={close} title={created ? S.secretTitle : S.createTitle}>
        {open &&
          (created ? (
            <SecretOnce secret={created.secret} warning={S.secretWarning} strings={S} testId="api-key-secret" onDone={close} />
          ) : (
            <CreateKeyForm onCreated={setCreated} onCancel={close} />
          ))}
      </FormModal>
    </SectionCard>
  );
}
