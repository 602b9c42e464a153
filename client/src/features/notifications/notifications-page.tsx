import { useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  CopyButton,
  Group,
  Loader,
  Pagination,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconBell, IconCalendar, IconCheck, IconCopy, IconSettings } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  DEFAULT_PAGE_SIZE,
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_STRINGS,
  showingText,
  type EventPreference,
  type UserNotification,
  type Preferences,
} from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { confirm } from '../../components/confirm.ts';
import { formatDate, formatDatesIn, formatDateTime } from '../../lib/format.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import {
  useCalendarStatus,
  useCreateCalendarLink,
  useMarkAllRead,
  useMarkRead,
  useNotifications,
  usePreferences,
  useSavePreferences,
  useStopCalendarFeed,
} from './api.ts';

const TABS = ['notifications', 'preferences', 'calendar'] as const;
type Tab = (typeof TABS)[number];

/** The notification centre (docs/decisions.md "Notification centre", "Calendar feed"): the tab is kept in the URL. */
export function NotificationsPage() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : 'notifications';
  return (
    <>
      <PageHeader title={NOTIFICATION_STRINGS.title} />
      <Tabs value={tab} onChange={(v) => setParams(v && v !== 'notifications' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="notifications" leftSection={<IconBell size={16} />}>
            {NOTIFICATION_STRINGS.tabNotifications}
          </Tabs.Tab>
          <Tabs.Tab value="preferences" leftSection={<IconSettings size={16} />}>
            {NOTIFICATION_STRINGS.tabPreferences}
          </Tabs.Tab>
          <Tabs.Tab value="calendar" leftSection={<IconCalendar size={16} />}>
            {NOTIFICATION_STRINGS.tabCalendar}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="notifications">
          <NotificationList />
        </Tabs.Panel>
        <Tabs.Panel value="preferences">
          <PreferencesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="calendar">
          <CalendarPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

function NotificationList() {
  const [state, update] = useUrlState({ page: '1', unread: '' });
  const page = Math.max(1, Number(state.page) || 1);
  const unreadOnly = state.unread === '1';
  const query = useNotifications({ page, limit: DEFAULT_PAGE_SIZE, unread_only: unreadOnly ? 'true' : undefined });
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const navigate = useNavigate();
  const data = query.data;
  const total = data?.pagination.total ?? 0;

  const open = (n: UserNotification) => {
    if (!n.read_at) markRead.mutate({ id: n.id });
    if (n.link) void navigate(n.link);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Switch
          label={NOTIFICATION_STRINGS.unreadOnly}
          checked={unreadOnly}
          onChange={(e) => update({ unread: e.currentTarget.checked ? '1' : '' })}
        />
        <Group gap="sm">
          <Text size="sm" c="dimmed" data-testid="unread-total">
            {data ? `${data.unread} unread` : ''}
          </Text>
          <Button
            variant="light"
            leftSection={<IconCheck size={16} />}
            disabled={!data || data.unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            {NOTIFICATION_STRINGS.markAllRead}
          </Button>
        </Group>
      </Group>
      {query.error ? (
        <QueryError things={NOTIFICATION_STRINGS.things} query={query} />
      ) : query.isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : total === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {unreadOnly ? NOTIFICATION_STRINGS.emptyUnread : NOTIFICATION_STRINGS.empty}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={NOTIFICATION_STRINGS.title}>
          {data!.notifications.map((n) => (
            <li key={n.id}>
              <NotificationCard n={n} onOpen={() => open(n)} />
            </li>
          ))}
        </Stack>
      )}
      {total > 0 && (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            {showingText(page, DEFAULT_PAGE_SIZE, total, NOTIFICATION_STRINGS.things)}
          </Text>
          <Pagination
            total={data!.pagination.pages}
            value={page}
            onChange={(p) => update({ page: String(p) })}
            getControlProps={(control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` })}
          />
        </Group>
      )}
    </Stack>
  );
}

function NotificationCard({ n, onOpen }: { n: UserNotification; onOpen: () => void }) {
  const unread = !n.read_at;
  return (
    <UnstyledButton onClick={onOpen} w="100%" data-testid="notification" data-unread={unread ? 'true' : 'false'}>
      <Card
        withBorder
        padding="sm"
        radius="md"
        style={unread ? { borderLeft: '4px solid var(--mantine-color-blue-filled)' } : undefined}
        bg={unread ? 'var(--mantine-color-blue-light)' : undefined}
      >
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={unread ? 700 : 500} size="sm">
              {unread && <VisuallyHidden>Unread: </VisuallyHidden>}
              {formatDatesIn(n.title)}
            </Text>
            {/* Dimmed text is tuned for the plain surfaces; on the unread card's blue tint it falls below 4.5:1. */}
            {n.body && (
              <Text size="sm" c={unread ? undefined : 'dimmed'}>
                {formatDatesIn(n.body)}
              </Text>
            )}
            <Text size="xs" c={unread ? undefined : 'dimmed'}>
              {NOTIFICATION_EVENT_LABELS[n.event]} · {formatDateTime(n.created_at)}
            </Text>
          </Stack>
          {unread && (
            <Badge size="sm" variant="filled" style={{ flexShrink: 0 }}>
              New
            </Badge>
          )}
        </Group>
      </Card>
    </UnstyledButton>
  );
}

type Channel = 'in_app' | 'email' | 'sms';

function PreferencesPanel() {
  const query = usePreferences();
  const save = useSavePreferences();
  const [draft, setDraft] = useState<EventPreference[] | null>(null);
  useEffect(() => {
    if (query.data) setDraft(query.data.events.map(({ event, in_app, email, sms }) => ({ event, in_app, email, sms })));
  }, [query.data]);
  if (query.error) return <QueryError things="preferences" query={query} />;
  if (!query.data || !draft) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  const prefs: Preferences = query.data;
  const set = (event: EventPreference['event'], channel: Channel, value: boolean) =>
    setDraft((d) => d!.map((p) => (p.event === event ? { ...p, [channel]: value } : p)));
  const reason = (channel: Channel, external: boolean): string | null => {
    if (channel === 'in_app') return null;
    if (!external) return NOTIFICATION_STRINGS.inAppOnly;
    return channel === 'email' ? prefs.channels.email_reason : prefs.channels.sms_reason;
  };
  const columns: { channel: Channel; label: string }[] = [
    { channel: 'in_app', label: 'In-app' },
    { channel: 'email', label: 'Email' },
    { channel: 'sms', label: 'SMS' },
  ];

  /** The visible sentence that says why a switch is off (each off switch points at it: aria-describedby). */
  const reasonId = (channel: Channel, external: boolean, event: string) =>
    !external ? `pref-in-app-only-${event}` : channel === 'email' ? 'pref-email-reason' : 'pref-sms-reason';

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Choose how each kind of notification reaches you. E-mail and SMS follow the office settings: a channel the administrator switched
        off cannot be switched on here.
      </Text>
      {/* Why a channel is off and how it comes back, in words on the page (not only in a tooltip). */}
      {prefs.channels.email_reason && (
        <Alert color="yellow" title="E-mail is off" id="pref-email-reason">
          {prefs.channels.email_reason}
        </Alert>
      )}
      {prefs.channels.email_note && (
        <Alert color="blue" title="E-mails are not sent yet" data-testid="pref-email-note">
          {prefs.channels.email_note}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={360}>
        <Table striped withTableBorder verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              {columns.map((c) => (
                <Table.Th key={c.channel} ta="center">
                  {c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {prefs.events.map((row) => {
              const value = draft.find((d) => d.event === row.event)!;
              return (
                <Table.Tr key={row.event}>
                  <Table.Td>
                    {row.label}
                    {!row.external && (
                      <Text size="xs" c="dimmed" id={`pref-in-app-only-${row.event}`}>
                        {NOTIFICATION_STRINGS.inAppOnly}
                      </Text>
                    )}
                  </Table.Td>
                  {columns.map(({ channel, label }) => {
                    const why = reason(channel, row.external);
                    return (
                      <Table.Td key={channel} ta="center">
                        <Switch
                          aria-label={`${label} for ${row.label}`}
                          aria-describedby={why ? reasonId(channel, row.external, row.event) : undefined}
                          checked={why ? false : value[channel]}
                          disabled={Boolean(why)}
                          onChange={(e) => set(row.event, channel, e.currentTarget.checked)}
                          style={{ display: 'inline-block' }}
                        />
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {prefs.channels.sms_reason && (
        <Text size="sm" c="dimmed" id="pref-sms-reason">
          SMS is off: {prefs.channels.sms_reason}
        </Text>
      )}
      <Group>
        <Button
          loading={save.isPending}
          onClick={() =>
            save.mutate({
              events: draft.map((d) => {
                const row = prefs.events.find((r) => r.event === d.event)!;
                return {
                  event: d.event,
                  in_app: d.in_app,
                  email: row.external && prefs.channels.email && d.email,
                  sms: row.external && prefs.channels.sms && d.sms,
                };
              }),
            })
          }
        >
          Save preferences
        </Button>
      </Group>
    </Stack>
  );
}

function CalendarPanel() {
  const status = useCalendarStatus();
  const create = useCreateCalendarLink();
  const stop = useStopCalendarFeed();
  const [url, setUrl] = useState<string | null>(null);
  const active = status.data?.active ?? false;

  const onCreate = () => create.mutate(undefined, { onSuccess: (r) => setUrl(r.url) });
  const onStop = async () => {
    if (!(await confirm('Stop the calendar feed? Calendars subscribed to its link stop updating.', { confirmLabel: 'Stop feed' }))) return;
    stop.mutate(undefined, { onSuccess: () => setUrl(null) });
  };

  if (status.error) return <QueryError things="calendar feed" query={status} />;
  return (
    <Stack gap="md" maw={720}>
      <Text size="sm">
        Subscribe to your license dates in Google Calendar, Outlook or Apple Calendar: each license&apos;s expiration, the date to start its
        renewal, and its continuing-education due date with the hours remaining. Brokers also see their agents&apos; licenses.
      </Text>
      <Text size="sm" c="dimmed">
        The link is a secret: anyone who has it can read these dates. It is shown once; rotating it makes the old link stop working.
      </Text>
      <Text size="sm" data-testid="calendar-status">
        {status.isLoading ? 'Loading…' : active ? `Feed active since ${formatDate(status.data!.created_at)}` : 'No calendar feed'}
      </Text>
      {url && (
        <Stack gap={4}>
          <TextInput label="Your calendar link (shown once)" value={url} readOnly onFocus={(e) => e.currentTarget.select()} />
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
      <Group>
        <Button loading={create.isPending} onClick={onCreate} leftSection={<IconCalendar size={16} />}>
          {active ? 'Rotate link' : 'Create calendar link'}
        </Button>
        {active && (
          <Button variant="default" color="red" loading={stop.isPending} onClick={() => void onStop()}>
            Stop feed
          </Button>
        )}
      </Group>
    </Stack>
  );
}
