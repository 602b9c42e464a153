import { useState } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Code,
  Drawer,
  Group,
  Pagination,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconList, IconPlayerPause, IconPlayerPlay, IconPlus, IconRefresh, IconSend, IconWebhook } from '@tabler/icons-react';
import {
  createWebhookInput,
  showingText,
  updateWebhookInput,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_STRINGS,
  type CreatedWebhook,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@lm/shared';
import { SectionCard } from './section-card.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { deleteAction, editAction, RowActionsMenu } from '../../components/row-actions.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { confirm } from '../../components/confirm.ts';
import type { ListState } from '../../lib/use-url-state.ts';
import { formatDateTime } from '../../lib/format.ts';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useDirtyGuard } from '../../lib/dirty-guard.tsx';
import { useAuth } from '../../lib/auth.tsx';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliver,
  useSendTest,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from './webhooks-api.ts';
import { SecretOnce } from './secret-once.tsx';

const S = WEBHOOK_STRINGS;

/** The endpoints fit one page (an Admin keeps a handful): the table's page state is fixed, not in the URL. */
const ONE_PAGE: ListState = {
  page: 1,
  limit: 500,
  sort: 'id',
  order: 'asc',
  filters: {},
  cursor: '',
  setPage: () => {},
  setNext: () => {},
  setLimit: () => {},
  setSort: () => {},
  setFilters: () => {},
};

type FormValues = { url: string; description: string; events: WebhookEvent[] };

function EndpointForm({
  endpoint,
  onCreated,
  onSaved,
  onCancel,
}: {
  endpoint: Webhook | null;
  onCreated: (created: CreatedWebhook) => void;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const form = useSchemaForm({
    schema: endpoint ? updateWebhookInput : createWebhookInput,
    initialValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      events: endpoint?.events ?? [],
    } satisfies FormValues as FormValues,
    toInput: (v: FormValues) => ({ ...(endpoint ? { id: endpoint.id } : {}), url: v.url, description: v.description, events: v.events }),
  });
  useDirtyGuard(form.isDirty());
  const pending = create.isPending || update.isPending;

  return (
    <form
      onSubmit={form.onSubmit((input) => {
        const onError = (err: unknown) => void showServerErrors(form, err);
        if (endpoint) update.mutate(input as Parameters<typeof update.mutate>[0], { onSuccess: onSaved, onError });
        else create.mutate(input as Parameters<typeof create.mutate>[0], { onSuccess: onCreated, onError });
      })}
      noValidate
    >
      <Stack>
        <TextInput label={S.url} placeholder={S.urlPlaceholder} withAsterisk data-autofocus {...form.getInputProps('url')} />
        <TextInput label={S.description} {...form.getInputProps('description')} />
        <Checkbox.Group label={S.events} description={S.eventsHelp} withAsterisk {...form.getInputProps('events')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
            {WEBHOOK_EVENTS.map((e) => (
              <Checkbox key={e} value={e} label={`${e} · ${WEBHOOK_EVENT_LABELS[e]}`} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {endpoint ? S.submitEdit : S.submitCreate}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const STATE_COLORS: Record<WebhookDelivery['state'], string> = { pending: 'yellow', delivered: 'green', failed: 'red' };

function AttemptLog({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attempt_log.length === 0) return <Text size="xs">{delivery.attempts}</Text>;
  return (
    <Stack gap={2}>
      {delivery.attempt_log.map((a, i) => (
        <Text key={i} size="xs" c={a.status_code !== null && a.status_code < 300 ? undefined : 'red'} title={a.error ?? undefined}>
          {formatDateTime(a.attempted_at, '', { seconds: true })} · {a.status_code ?? S.noResponse} · {a.duration_ms} ms
        </Text>
      ))}
    </Stack>
  );
}

/** One endpoint's delivery log, newest first, a page at a time, with Redeliver. */
function DeliveriesDrawer({ endpoint, onClose }: { endpoint: Webhook | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 600px)');
  const [page, setPage] = useState(1);
  const limit = 20;
  const query = useWebhookDeliveries(endpoint?.id ?? null, page, limit);
  const redeliver = useRedeliver();
  const total = query.data?.pagination.total ?? 0;
  const rows = query.data?.deliveries ?? [];
  const C = S.deliveryColumns;
  return (
    <Drawer
      opened={endpoint !== null}
      onClose={() => {
        setPage(1);
        onClose();
      }}
      position="right"
      size={phone ? '100%' : 'xl'}
      title={endpoint ? S.deliveriesTitle(endpoint.url) : ''}
    >
      {query.isError ? (
        <QueryError things={S.deliveryThings} query={query} fallback={S.deliveriesFailed} />
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {query.isLoading ? `Loading ${S.deliveryThings}…` : S.noDeliveries}
        </Text>
      ) : (
        <Stack>
          <Table.ScrollContainer minWidth={760}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{C.event}</Table.Th>
                  <Table.Th>{C.id}</Table.Th>
                  <Table.Th>{C.state}</Table.Th>
                  <Table.Th>{S.attemptsTitle}</Table.Th>
                  <Table.Th>{C.next}</Table.Th>
                  <Table.Th>{C.delivered}</Table.Th>
                  <Table.Th aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      <Text size="sm">{d.event}</Text>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(d.created_at)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Code>{d.id}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Tooltip label={d.last_error ?? ''} disabled={!d.last_error} multiline w={320}>
                        <Badge variant="light" color={STATE_COLORS[d.state]}>
                          {S.deliveryStates[d.state]}
                          {d.last_status_code !== null ? ` · ${d.last_status_code}` : ''}
                        </Badge>
                      </Tooltip>
                    </Table.Td>
                    <Table.Td>
                      <AttemptLog delivery={d} />
                    </Table.Td>
                    <Table.Td>{formatDateTime(d.next_attempt_at, '-')}</Table.Td>
                    <Table.Td>{formatDateTime(d.delivered_at, '-')}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="light"
                        leftSection={<IconRefresh size={14} />}
                        disabled={!endpoint?.enabled}
                        loading={redeliver.isPending && redeliver.variables?.delivery_id === d.id}
                        onClick={() => endpoint && redeliver.mutate({ id: endpoint.id, delivery_id: d.id })}
                        aria-label={`${S.redeliver} ${d.id}`}
                      >
                        {S.redeliver}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {showingText(page, limit, total, S.deliveryThings)}
            </Text>
            <Pagination total={Math.max(1, Math.ceil(total / limit))} value={page} onChange={setPage} size="sm" />
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}

function StatusBadge({ endpoint }: { endpoint: Webhook }) {
  if (!endpoint.enabled) {
    return (
      <Tooltip label={endpoint.disabled_reason ?? ''} disabled={!endpoint.disabled_reason} multiline w={280}>
        <Badge color="gray" variant="light">
          {S.statusDisabled}
        </Badge>
      </Tooltip>
    );
  }
  if (endpoint.failing_since) {
    return (
      <Tooltip label={S.failingSince(formatDateTime(endpoint.failing_since))}>
        <Badge color="red" variant="light">
          {S.statusFailing}
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Badge color="green" variant="light">
      {S.statusEnabled}
    </Badge>
  );
}

/** Settings › Integrations: the webhooks section (shown to those who may read webhooks: the Admins). */
export function WebhooksSection() {
  const { can } = useAuth();
  const readable = can('webhooks.read');
  const manages = can('webhooks.manage');
  const query = useWebhooks(readable);
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const sendTest = useSendTest();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  if (!readable) return null;

  const close = () => {
    setEditing(null);
    setCreated(null);
  };
  const onDelete = async (w: Webhook) => {
    if (!(await confirm(S.deleteConfirm(w.url), { title: S.deleteTitle, confirmLabel: S.delete, danger: true }))) return;
    remove.mutate({ id: w.id });
  };

  return (
    <SectionCard
      id="webhooks-title"
      icon={<IconWebhook size={20} aria-hidden />}
      title={S.title}
      intro={S.intro}
      action={
        manages && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {S.add}
          </Button>
        )
      }
    >
      <ListTable<Webhook>
        things={S.things}
        query={query}
        records={query.data?.webhooks}
        total={query.data?.webhooks.length ?? 0}
        idAccessor="id"
        list={ONE_PAGE}
        emptyText={S.empty}
        fallback={S.fetchFailed}
        onOpen={setLogOf}
        actions={(w) => (
          <RowActionsMenu
            label={`Actions for ${w.url}`}
            actions={[
              { label: S.deliveries, icon: IconList, onClick: () => setLogOf(w) },
              manages && w.enabled && { label: S.sendTest, icon: IconSend, onClick: () => sendTest.mutate({ id: w.id }) },
              manages && editAction(() => setEditing(w)),
              manages &&
                (w.enabled
                  ? { label: S.disable, icon: IconPlayerPause, onClick: () => update.mutate({ id: w.id, enabled: false }) }
                  : { label: S.enable, icon: IconPlayerPlay, onClick: () => update.mutate({ id: w.id, enabled: true }) }),
              manages && deleteAction(() => void onDelete(w)),
            ]}
          />
        )}
        columns={[
          {
            accessor: 'url',
            title: S.columns.url,
            render: (w) => (
              <Stack gap={0}>
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {w.url}
                </Text>
                {w.description && (
                  <Text size="xs" c="dimmed">
                    {w.description}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            accessor: 'events',
            title: S.columns.events,
            render: (w) => (
              <Group gap={4}>
                {w.events.map((e) => (
                  <Badge key={e} variant="light" size="sm" title={WEBHOOK_EVENT_LABELS[e]}>
                    {e}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { accessor: 'enabled', title: S.columns.status, render: (w) => <StatusBadge endpoint={w} /> },
          { accessor: 'created_at', title: S.columns.created, render: (w) => formatDateTime(w.created_at) },
        ]}
      />
      <FormModal
        opened={editing !== null}
        onClose={close}
        title={created ? S.secretTitle : editing === 'new' ? S.createTitle : S.editTitle}
        size="lg"
      >
        {editing !== null &&
          (created ? (
            <SecretOnce secret={created.secret} warning={S.secretOnce} strings={S} testId="webhook-secret" onDone={close} />
          ) : (
            <EndpointForm endpoint={editing === 'new' ? null : editing} onCreated={setCreated} onSaved={close} onCancel={close} />
          ))}
      </FormModal>
      <DeliveriesDrawer endpoint={logOf} onClose={() => setLogOf(null)} />
    </SectionCard>
  );
}
