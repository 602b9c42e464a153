import { useState } from 'react';
import { Button, Stack, Text, type MantineTheme } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import {
  COMPLIANCE_STATES,
  LICENSE_SORT_COLUMNS,
  LICENSE_STATE_CODES,
  LICENSE_STATUSES,
  LICENSE_STRINGS,
  LICENSE_TYPES,
  type ComplianceState,
  type License,
  type LicenseSortColumn,
  type LicenseStatus,
  type LicenseType,
} from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { ListTable } from '../../components/list-table.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { deleteAction, editAction, RowActionsMenu } from '../../components/row-actions.tsx';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { RequireAccess } from '../../components/require-role.tsx';
import { CeProgress, ComplianceCell, ExpiryBadge } from './license-badges.tsx';
import { ComplianceFilter } from './compliance-filter.tsx';
import { LicenseStatusBadge } from '../../components/license-status-badge.tsx';
import { LicenseFormModal } from './license-form-modal.tsx';
import { RenewModal } from './renew-modal.tsx';
import { TranscriptDrawer } from '../../components/transcript-drawer.tsx';
import { AdjustmentForm } from './adjustment-form.tsx';
import { useComplianceSummary, useDeleteLicense, useLicensesPage } from './api.ts';
import { formatDate } from '../../lib/format.ts';

const EXPIRING_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '60', label: '60 days' },
  { value: '90', label: '90 days' },
  { value: '180', label: '180 days' },
  { value: '365', label: '1 year' },
];
/** The window in the URL when it is not one of the choices (the dashboard's link carries the office's warning days). */
const expiringOptions = (value: string) =>
  !value || EXPIRING_OPTIONS.some((o) => o.value === value) ? EXPIRING_OPTIONS : [...EXPIRING_OPTIONS, { value, label: `${value} days` }];
/** Table column -> the server's sort key, where they differ: the CE column sorts by the hours still to take. */
const SORT_KEYS = { ce: 'hours_remaining' };
const sortKey = (key: string): LicenseSortColumn =>
  (LICENSE_SORT_COLUMNS as readonly string[]).includes(key) ? (key as LicenseSortColumn) : 'expiration_date';
const complianceState = (value: string): ComplianceState | undefined =>
  (COMPLIANCE_STATES as readonly string[]).includes(value) ? (value as ComplianceState) : undefined;
/**
 * Columns shown from the sm breakpoint up. Between the phone's cards and sm the holder's second line carries the
 * number, state, type and status, so the holder, the number and the compliance badge are in view beside the pinned
 * actions. A phone's card shows the holder, then number, state, expiry (with its badge), compliance and status.
 */
const wide = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;
/** The issue date only where the table has room for every column (it is in the transcript and the export). */
const widest = '(min-width: 100em)';

export const LICENSES_DENIED = 'Access denied. Licenses are available to Admins, Brokers and Agents.';

export function LicensesPage() {
  return (
    <>
      <PageHeader title={LICENSE_STRINGS.title} />
      <RequireAccess action="licenses.read" message={LICENSES_DENIED}>
        <LicensesTable />
      </RequireAccess>
    </>
  );
}

function LicensesTable() {
  const { can } = useAuth();
  // The row menu's renew, edit and delete (licenses.renew, .update, .delete: the same roles in the policy).
  const canManage = can('licenses.update');
  // `expiring` is the window's older name in the URL, still read from bookmarks.
  const list = useListState({
    sort: 'expiration_date',
    filters: { status: '', state: '', type: '', expiring_within: '', expiring: '', compliance: '', search: '' },
  });
  const f = list.filters;
  const expiring = f.expiring_within || f.expiring;

  /** The list's filters and sort as the page procedure and the CSV export take them. */
  const filters = {
    status: (f.status || undefined) as LicenseStatus | undefined,
    state: f.state || undefined,
    license_type: (f.type || undefined) as LicenseType | undefined,
    expiring_within: expiring ? Number(expiring) : undefined,
    search: f.search || undefined,
  };
  const view = { sort: sortKey(list.sort), order: list.order, ...filters, compliance: complianceState(f.compliance) };
  const query = useLicensesPage({ ...view, page: list.page, limit: list.limit, cursor: list.cursor || undefined });
  // The chips' counts: the other filters applied, whatever the chosen state.
  const summary = useComplianceSummary(filters);
  const [modal, setModal] = useState<{ opened: boolean; license: License | null }>({ opened: false, license: null });
  const [renewing, setRenewing] = useState<License | null>(null);
  const [transcriptId, setTranscriptId] = useState<number | null>(null);
  const remove = useDeleteLicense();

  const onDelete = async (l: License) => {
    if (await confirm(LICENSE_STRINGS.confirmDelete, { confirmLabel: 'Delete' })) remove.mutate({ id: l.license_id });
  };

  return (
    <Stack>
      <ListToolbar
        list={list}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Holder name or license number', w: 250 },
          { name: 'status', label: 'Status', placeholder: 'All statuses', data: [...LICENSE_STATUSES], w: 170 },
          { name: 'state', label: 'State', placeholder: 'All states', data: [...LICENSE_STATE_CODES], searchable: true, w: 130 },
          { name: 'type', label: 'License Type', placeholder: 'All types', data: [...LICENSE_TYPES], w: 170 },
          {
            name: 'expiring_within',
            label: 'Expiring Within',
            placeholder: 'Any time',
            data: expiringOptions(expiring),
            value: expiring,
            onChange: (v) => list.setFilters({ expiring_within: v, expiring: '' }),
            w: 150,
          },
        ]}
        exportCsv={{ path: '/api/licenses/export', params: view, things: 'licenses' }}
        actions={
          can('licenses.create') && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ opened: true, license: null })}>
              {LICENSE_STRINGS.add}
            </Button>
          )
        }
      />

      <ComplianceFilter
        value={view.compliance ?? ''}
        onChange={(compliance) => list.setFilters({ compliance })}
        summary={summary.isError ? undefined : summary.data}
      />

      <ListTable<License>
        things={LICENSE_STRINGS.things}
        query={query}
        records={query.data?.licenses}
        total={query.data?.pagination.total ?? 0}
        paging={query.data?.pagination}
        idAccessor="license_id"
        list={list}
        sortKeys={SORT_KEYS}
        emptyText={LICENSE_STRINGS.empty}
        // A row opens its CE transcript (the license's detail).
        onOpen={(l) => setTranscriptId(l.license_id)}
        actions={
          canManage
            ? (l) => (
                <RowActionsMenu
                  label={`Actions for license ${l.license_number}`}
                  actions={[
                    { label: 'Renew', icon: IconRefresh, onClick: () => setRenewing(l) },
                    editAction(() => setModal({ opened: true, license: l })),
                    deleteAction(() => void onDelete(l)),
                  ]}
                />
              )
            : undefined
        }
        columns={[
          {
            accessor: 'holder',
            title: 'Holder',
            sortable: true,
            card: 'title',
            renderCard: (l) => (
              <Text size="sm" fw={600}>
                {l.first_name} {l.last_name}
              </Text>
            ),
            render: (l) => (
              <>
                <Text size="sm" fw={500}>
                  {l.first_name} {l.last_name}
                </Text>
                <Text size="xs" c="dimmed" hiddenFrom="sm">
                  {l.license_number} · {l.state} {l.license_type} · {l.status}
                </Text>
              </>
            ),
          },
          { accessor: 'license_number', title: 'License Number', sortable: true, noWrap: true, visibleMediaQuery: wide, cardOrder: 1 },
          {
            accessor: 'compliance',
            title: LICENSE_STRINGS.complianceColumn,
            sortable: true,
            cardOrder: 4,
            render: (l) => <ComplianceCell compliance={l.compliance} />,
          },
          { accessor: 'state', title: 'State', sortable: true, visibleMediaQuery: wide, cardOrder: 2 },
          { accessor: 'license_type', title: 'Type', sortable: true, noWrap: true, visibleMediaQuery: wide, card: 'hidden' },
          {
            accessor: 'issue_date',
            title: 'Issue Date',
            sortable: true,
            noWrap: true,
            visibleMediaQuery: widest,
            card: 'hidden',
            render: (l) => formatDate(l.issue_date),
          },
          {
            accessor: 'expiration_date',
            title: 'Expiration',
            sortable: true,
            noWrap: true,
            cardOrder: 3,
            render: (l) => (
              <Stack gap={4} align="flex-start">
                <Text size="sm">{formatDate(l.expiration_date)}</Text>
                <ExpiryBadge expirationDate={l.expiration_date} daysLeft={l.compliance.days_left} />
              </Stack>
            ),
          },
          {
            accessor: 'status',
            title: 'Status',
            sortable: true,
            noWrap: true,
            visibleMediaQuery: wide,
            cardOrder: 5,
            render: (l) => <LicenseStatusBadge status={l.status} />,
          },
          {
            accessor: 'ce',
            title: LICENSE_STRINGS.ceColumn,
            sortable: true,
            visibleMediaQuery: wide,
            card: 'hidden',
            render: (l) => (
              <CeProgress completed={l.ce_hours_completed} required={l.ce_hours_required} complete={l.compliance.state === 'complete'} />
            ),
          },
        ]}
      />

      {canManage && (
        <LicenseFormModal opened={modal.opened} license={modal.license} onClose={() => setModal((m) => ({ ...m, opened: false }))} />
      )}
      {can('licenses.renew') && <RenewModal license={renewing} onClose={() => setRenewing(null)} />}
      <TranscriptDrawer
        licenseId={transcriptId}
        onClose={() => setTranscriptId(null)}
        adjustment={can('licenses.adjust') ? (id) => <AdjustmentForm key={id} licenseId={id} /> : undefined}
      />
    </Stack>
  );
}
