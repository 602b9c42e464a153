import { useState } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Tabs } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { defaultReportPeriod, REPORT_LICENSE_STATUSES, REPORT_STATES, REPORT_STRINGS, type ReportName } from '@lm/shared';
import { useUrlState } from '../../lib/use-url-state.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { DateField } from '../../components/date-field.tsx';
import { officeToday } from '../../lib/format.ts';
import { exportReport, type ReportQuery } from './export-report.ts';
import { OverviewTab } from './overview-tab.tsx';
import { LicenseTab } from './license-tab.tsx';
import { UserTab } from './user-tab.tsx';
import { CourseTab } from './course-tab.tsx';

const TABS = ['overview', 'licenses', 'users', 'courses'] as const;
type Tab = (typeof TABS)[number];
/** What each tab's Export button downloads; the Overview's figures are in the comprehensive report. */
const TAB_EXPORT: Record<Tab, ReportName> = { overview: 'comprehensive', licenses: 'licenses', users: 'users', courses: 'courses' };

/** Reports and Analytics (docs/product.md section 2), Admin only (wrapped in <RequireAccess action="reports.read"> by the routes). */
export function ReportsPage() {
  const [defaults] = useState(() => defaultReportPeriod(officeToday()));
  const [state, setState] = useUrlState({ tab: 'overview', ...defaults, state: '', license_status: '' });
  const [busy, setBusy] = useState<ReportName | null>(null);
  const tab: Tab = (TABS as readonly string[]).includes(state.tab) ? (state.tab as Tab) : 'overview';
  const validRange = Boolean(state.start_date && state.end_date && state.start_date <= state.end_date);
  const filters: ReportQuery = {
    start_date: state.start_date,
    end_date: state.end_date,
    state: state.state || undefined,
    license_status: state.license_status || undefined,
  };

  const onExport = async (name: ReportName) => {
    setBusy(name);
    try {
      await exportReport(name, filters);
    } finally {
      setBusy(null);
    }
  };

  const exportButton = (name: ReportName) => (
    <Button
      variant="light"
      leftSection={<IconDownload size={16} />}
      onClick={() => void onExport(name)}
      loading={busy === name}
      disabled={!validRange || (busy !== null && busy !== name)}
    >
      {REPORT_STRINGS.export}
    </Button>
  );

  return (
    <>
      <PageHeader
        title={REPORT_STRINGS.title}
        actions={
          <Button
            leftSection={<IconFileSpreadsheet size={16} />}
            onClick={() => void onExport('comprehensive')}
            loading={busy === 'comprehensive'}
            disabled={!validRange || (busy !== null && busy !== 'comprehensive')}
          >
            {REPORT_STRINGS.exportAll}
          </Button>
        }
      />
      <Stack>
        <Card withBorder radius="md" padding="md">
          <Group align="flex-end" wrap="wrap" gap="sm">
            <DateField
              label="Start Date"
              value={state.start_date}
              onChange={(v) => setState({ start_date: v })}
              error={state.start_date && state.end_date && state.start_date > state.end_date ? REPORT_STRINGS.dateOrder : undefined}
              w={170}
            />
            <DateField label="End Date" value={state.end_date} onChange={(v) => setState({ end_date: v })} w={170} />
            <Select
              label="State"
              data={[{ value: '', label: 'All' }, ...REPORT_STATES.map((s) => ({ value: s, label: s }))]}
              value={state.state}
              onChange={(v) => setState({ state: v ?? '' })}
              allowDeselect={false}
              w={120}
            />
            <Select
              label="License Status"
              data={[{ value: '', label: 'All' }, ...REPORT_LICENSE_STATUSES.map((s) => ({ value: s, label: s }))]}
              value={state.license_status}
              onChange={(v) => setState({ license_status: v ?? '' })}
              allowDeselect={false}
              w={180}
            />
          </Group>
        </Card>

        <Tabs value={tab} onChange={(v) => setState({ tab: v ?? 'overview' })} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="overview">{REPORT_STRINGS.tabs.overview}</Tabs.Tab>
            <Tabs.Tab value="licenses">{REPORT_STRINGS.tabs.licenses}</Tabs.Tab>
            <Tabs.Tab value="users">{REPORT_STRINGS.tabs.users}</Tabs.Tab>
            <Tabs.Tab value="courses">{REPORT_STRINGS.tabs.courses}</Tabs.Tab>
          </Tabs.List>
          <Group justify="flex-end" my="md">
            {exportButton(TAB_EXPORT[tab])}
          </Group>
          {!validRange ? (
            <Alert color="yellow" title="Check the dates">
              {state.start_date && state.end_date ? REPORT_STRINGS.dateOrder : 'Choose a start and an end date.'}
            </Alert>
          ) : (
            <>
              <Tabs.Panel value="overview">
                <OverviewTab filters={filters} />
              </Tabs.Panel>
              <Tabs.Panel value="licenses">
                <LicenseTab filters={filters} />
              </Tabs.Panel>
              <Tabs.Panel value="users">
                <UserTab filters={filters} />
              </Tabs.Panel>
              <Tabs.Panel value="courses">
                <CourseTab filters={filters} />
              </Tabs.Panel>
            </>
          )}
        </Tabs>
      </Stack>
    </>
  );
}
