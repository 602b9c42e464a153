import { useState } from 'react';
import { ActionIcon, Alert, Button, Code, Grid, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconMailOff, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { NOTIFICATION_STRINGS, type NotificationTemplate } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { ActiveBadge, TypeBadge, triggerLabel } from './template-badges.tsx';
import { TemplateFormModal } from './template-form-modal.tsx';
import { TestSendModal } from './test-send-modal.tsx';
import { NotificationSideCards } from './notification-side-cards.tsx';

/** Says plainly when no mail server is configured (e-mails become files in the outbox) and that SMS has no gateway. */
export function DeliveryAlert() {
  const info = trpc.admin.notifications.delivery.useQuery(undefined, { staleTime: 60_000 });
  if (!info.data || info.data.email === 'smtp') return null;
  return (
    <Alert color="yellow" icon={<IconMailOff size={18} />} title={NOTIFICATION_STRINGS.noMailServer} mb="md" data-testid="no-mail-server">
      E-mails are not delivered: each one is written as an .eml file to the outbox, <Code>{info.data.outbox_dir}</Code>. Set SMTP_URL to
      send them through your mail server. {NOTIFICATION_STRINGS.noSmsGateway}: SMS and push notifications are recorded as not delivered.
    </Alert>
  );
}

/** Notification Management (Admin only; app.tsx wraps it in AdminOnly). */
export function NotificationManagementPage() {
  const utils = trpc.useUtils();
  const templates = trpc.admin.notifications.list.useQuery();
  const remove = trpc.admin.notifications.delete.useMutation();
  const [form, setForm] = useState<{ opened: boolean; template: NotificationTemplate | null }>({ opened: false, template: null });
  const [testing, setTesting] = useState<NotificationTemplate | null>(null);

  const onDelete = async (t: NotificationTemplate) => {
    if (!(await confirm(NOTIFICATION_STRINGS.deleteConfirm, { confirmLabel: 'Delete' }))) return;
    remove.mutate(
      { id: t.id },
      {
        onSuccess: () => {
          notify.success(NOTIFICATION_STRINGS.deleted);
          void utils.admin.notifications.list.invalidate();
        },
        onError: (err) => notify.failure(err, NOTIFICATION_STRINGS.deleteFailed),
      },
    );
  };

  return (
    <>
      <PageHeader
        title={NOTIFICATION_STRINGS.title}
        description="Templates for license reminders and other notifications, and what was delivered."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, template: null })}>
            {NOTIFICATION_STRINGS.addTemplate}
          </Button>
        }
      />
      <DeliveryAlert />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack>
            {templates.isError ? (
              <QueryError things="notification templates" query={templates} />
            ) : (
              <DataTable<NotificationTemplate>
                aria-label="Notification templates"
                withTableBorder
                borderRadius="md"
                striped
                highlightOnHover
                minHeight={templates.data?.templates.length ? undefined : 180}
                fetching={templates.isLoading}
                records={templates.data?.templates ?? []}
                idAccessor="id"
                noRecordsText={NOTIFICATION_STRINGS.noTemplates}
                columns={[
                  {
                    accessor: 'name',
                    title: 'Name',
                    render: (t) => (
                      <Stack gap={2} miw={180} maw={340}>
                        <Text fw={600} size="sm">
                          {t.name}
                        </Text>
                        <Text size="xs" c="dimmed" lineClamp={1}>
                          {t.subject}
                        </Text>
                      </Stack>
                    ),
                  },
                  { accessor: 'type', title: 'Type', render: (t) => <TypeBadge type={t.type} /> },
                  { accessor: 'trigger_event', title: 'Trigger Event', noWrap: true, render: (t) => triggerLabel(t.trigger_event) },
                  { accessor: 'is_active', title: 'Status', render: (t) => <ActiveBadge active={t.is_active} /> },
                  {
                    accessor: 'actions',
                    title: 'Actions',
                    textAlign: 'right',
                    render: (t) => (
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label="Edit" withArrow>
                          <ActionIcon variant="subtle" aria-label="Edit" onClick={() => setForm({ opened: true, template: t })}>
                            <IconEdit size={18} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Send Test" withArrow>
                          <ActionIcon variant="subtle" color="teal" aria-label="Send Test" onClick={() => setTesting(t)}>
                            <IconSend size={18} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Delete" withArrow>
                          <ActionIcon variant="subtle" color="red" aria-label="Delete" onClick={() => void onDelete(t)}>
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    ),
                  },
                ]}
              />
            )}
          </Stack>
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
