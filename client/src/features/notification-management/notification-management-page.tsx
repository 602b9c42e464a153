import { useState } from 'react';
import { Alert, Button, Code, Grid, Stack, Tabs, Text } from '@mantine/core';
import { IconEye, IconMailOff, IconPlus, IconSend } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import {
  DELIVERY_SORT_COLUMNS,
  DELIVERY_STATUSES,
  NOTIFICATION_MANAGEMENT_STRINGS,
  DELIVERY_CHANNEL_LABELS,
  NOTIFICATION_TYPE_LABELS,
  NOTIFICATION_TYPES,
  TEMPLATE_SORT_COLUMNS,
  TRIGGER_EVENT_LABELS,
  TRIGGER_EVENTS,
  type Delivery,
  type DeliverySortColumn,
  type DeliveryStatus,
  type NotificationTemplate,
  type NotificationType,
  type TemplateSortColumn,
  type TriggerEvent,
} from '@lm/shared';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { deleteAction, editAction, RowActionButtons, RowActionsMenu } from '../../components/row-actions.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { formatDateTime } from '../../lib/format.ts';
import { ActiveBadge, DeliveryStatusBadge, TypeBadge, triggerLabel } from './template-badges.tsx';
import { TemplateFormModal } from './template-form-modal.tsx';
import { TestSendModal } from './test-send-modal.tsx';
import { NotificationSideCards } from './notification-side-cards.tsx';
import { DeliveryDrawer, TemplateDrawer } from './notification-drawers.tsx';
import { useDeleteTemplate, useDeliveriesPage, useDeliveryInfo, useTemplatesPage } from './api.ts';

/** Says plainly when no mail server is configured (e-mails become files in the outbox) and that SMS has no gateway. */
export function DeliveryAlert() {
  const info = useDeliveryInfo();
  if (!info.data || info.data.email === 'smtp') return null;
  return (
    <Alert
      color="yellow"
      icon={<IconMailOff size={18} />}
      title={NOTIFICATION_MANAGEMENT_STRINGS.noMailServer}
      mb="md"
      data-testid="no-mail-server"
    >
      E-mails are not delivered: each one is written as an .eml file to the outbox, <Code>{info.data.outbox_dir}</Code>. Set SMTP_URL to
      send them through your mail server. {NOTIFICATION_MANAGEMENT_STRINGS.noSmsGateway}: SMS and push notifications are recorded as not
      delivered.
    </Alert>
  );
}

const TABS = ['templates', 'history'] as const;
/** A template's type and a delivery's channel: the same choices. */
const TYPE_OPTIONS = NOTIFICATION_TYPES.map((t) => ({ value: t, label: NOTIFICATION_TYPE_LABELS[t] }));

/** Notification Management (Admin only; signed-in.tsx wraps it in RequireAccess): the templates and the delivery history. */
export function NotificationManagementPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'history' ? 'history' : 'templates';
  const [form, setForm] = useState<{ opened: boolean; template: NotificationTemplate | null }>({ opened: false, template: null });
  const [testing, setTesting] = useState<NotificationTemplate | null>(null);

  return (
    <>
      <PageHeader
        title={NOTIFICATION_MANAGEMENT_STRINGS.title}
        description="Templates for license reminders and other notifications, and what was delivered."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, template: null })}>
            {NOTIFICATION_MANAGEMENT_STRINGS.addTemplate}
          </Button>
        }
      />
      <DeliveryAlert />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          {/* Each tab is its own list with its own page, size and sort in the URL: switching starts the other afresh. */}
          <Tabs value={tab} onChange={(v) => setParams(v === 'history' ? { tab: 'history' } : {}, { replace: true })} keepMounted={false}>
            <Tabs.List mb="md">
              {TABS.map((t) => (
                <Tabs.Tab key={t} value={t}>
                  {t === 'templates' ? NOTIFICATION_MANAGEMENT_STRINGS.templates : NOTIFICATION_MANAGEMENT_STRINGS.history}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="templates">
              <TemplatesList onEdit={(t) => setForm({ opened: true, template: t })} onTest={setTesting} />
            </Tabs.Panel>
            <Tabs.Panel value="history">
              <DeliveriesList />
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <NotificationSideCards />
        </Grid.Col>
      </Grid>
      <TemplateFormModal opened={form.opened} template={form.template} onClose={() => setForm((f) => ({ ...f, opened: false }))} />
      <TestSendModal template={testing} onClose={() => setTesting(null)} />
    </>
  );
}

const templateSort = (key: string): TemplateSortColumn =>
  (TEMPLATE_SORT_COLUMNS as readonly string[]).includes(key) ? (key as TemplateSortColumn) : 'name';

function TemplatesList({ onEdit, onTest }: { onEdit: (t: NotificationTemplate) => void; onTest: (t: NotificationTemplate) => void }) {
  const list = useListState({ sort: 'name', filters: { search: '', type: '', trigger_event: '' } });
  const f = list.filters;
  const view = {
    search: f.search || undefined,
    type: (f.type || undefined) as NotificationType | undefined,
    trigger_event: (f.trigger_event || undefined) as TriggerEvent | undefined,
    sort: templateSort(list.sort),
    order: list.order,
  };
  const query = useTemplatesPage({ ...view, page: list.page, limit: list.limit });
  const remove = useDeleteTemplate();
  const [open, setOpen] = useState<NotificationTemplate | null>(null);

  const onDelete = async (t: NotificationTemplate) => {
    if (!(await confirm(NOTIFICATION_MANAGEMENT_STRINGS.deleteConfirm, { confirmLabel: 'Delete' }))) return;
    remove.mutate({ id: t.id });
  };

  return (
    <Stack>
      <ListToolbar
        list={list}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Name or subject', w: 220 },
          { name: 'type', label: 'Type', placeholder: 'All types', data: TYPE_OPTIONS, w: 130 },
          {
            name: 'trigger_event',
            label: 'Trigger Event',
            placeholder: 'All events',
            data: TRIGGER_EVENTS.map((t) => ({ value: t, label: TRIGGER_EVENT_LABELS[t] })),
            w: 180,
          },
        ]}
        exportCsv={{ path: '/api/admin/notification-templates/export', params: view, things: 'notification templates' }}
      />
      <ListTable<NotificationTemplate>
        things={NOTIFICATION_MANAGEMENT_STRINGS.templatesThings}
        query={query}
        records={query.data?.templates}
        total={query.data?.pagination.total ?? 0}
        idAccessor="id"
        list={list}
        emptyText={NOTIFICATION_MANAGEMENT_STRINGS.noTemplates}
        fallback={NOTIFICATION_MANAGEMENT_STRINGS.fetchTemplatesFailed}
        onOpen={setOpen}
        actions={(t) => (
          <RowActionsMenu
            label={`Actions for template ${t.name}`}
            actions={[
              editAction(() => onEdit(t)),
              { label: 'Send Test', icon: IconSend, onClick: () => onTest(t) },
              deleteAction(() => void onDelete(t)),
            ]}
          />
        )}
        columns={[
          {
            accessor: 'name',
            title: 'Name',
            sortable: true,
            render: (t) => (
              <Stack gap={2} miw={160} maw={340}>
                <Text fw={600} size="sm">
                  {t.name}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {t.subject}
                </Text>
              </Stack>
            ),
          },
          { accessor: 'type', title: 'Type', sortable: true, render: (t) => <TypeBadge type={t.type} /> },
          { accessor: 'trigger_event', title: 'Trigger Event', sortable: true, noWrap: true, render: (t) => triggerLabel(t.trigger_event) },
          { accessor: 'is_active', title: 'Status', sortable: true, render: (t) => <ActiveBadge active={t.is_active} /> },
        ]}
      />
      <TemplateDrawer template={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}

const deliverySort = (key: string): DeliverySortColumn =>
  (DELIVERY_SORT_COLUMNS as readonly string[]).includes(key) ? (key as DeliverySortColumn) : 'created_at';

/** The Admin's notification log: every delivery attempt, newest first. */
function DeliveriesList() {
  const list = useListState({ sort: 'created_at', order: 'desc', filters: { search: '', status: '', channel: '' } });
  const f = list.filters;
  const view = {
    search: f.search || undefined,
    status: (f.status || undefined) as DeliveryStatus | undefined,
    channel: (f.channel || undefined) as NotificationType | undefined,
    sort: deliverySort(list.sort),
    order: list.order,
  };
  const query = useDeliveriesPage({ ...view, page: list.page, limit: list.limit });
  const [open, setOpen] = useState<Delivery | null>(null);

  return (
    <Stack>
      <ListToolbar
        list={list}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Recipient, template or subject', w: 240 },
          {
            name: 'status',
            label: 'Status',
            placeholder: 'All statuses',
            data: DELIVERY_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) })),
            w: 140,
          },
          { name: 'channel', label: 'Channel', placeholder: 'All channels', data: TYPE_OPTIONS, w: 140 },
        ]}
        exportCsv={{ path: '/api/admin/notification-history/export', params: view, things: 'notification history' }}
      />
      <ListTable<Delivery>
        things={NOTIFICATION_MANAGEMENT_STRINGS.deliveriesThings}
        query={query}
        records={query.data?.deliveries}
        total={query.data?.pagination.total ?? 0}
        idAccessor="id"
        list={list}
        emptyText={NOTIFICATION_MANAGEMENT_STRINGS.noDeliveries}
        fallback={NOTIFICATION_MANAGEMENT_STRINGS.fetchHistoryFailed}
        onOpen={setOpen}
        actions={(d) => (
          <RowActionButtons
            actions={[{ label: 'View details', name: `View notification ${d.id}`, icon: IconEye, onClick: () => setOpen(d) }]}
          />
        )}
        columns={[
          { accessor: 'created_at', title: 'Date', sortable: true, noWrap: true, render: (d) => formatDateTime(d.created_at) },
          // A phone's card is headed by the recipient.
          { accessor: 'recipient', title: 'Recipient', sortable: true, card: 'title' },
          { accessor: 'template_name', title: 'Template', sortable: true },
          { accessor: 'channel', title: 'Channel', sortable: true, render: (d) => DELIVERY_CHANNEL_LABELS[d.channel] },
          { accessor: 'status', title: 'Status', sortable: true, render: (d) => <DeliveryStatusBadge delivery={d} /> },
        ]}
      />
      <DeliveryDrawer delivery={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
