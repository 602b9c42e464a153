import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text, type MantineTheme } from '@mantine/core';
import { IconInfoCircle, IconPlus } from '@tabler/icons-react';
import {
  CE_RULE_SORT_COLUMNS,
  CE_STRINGS,
  LICENSE_STATE_CODES,
  LICENSE_TYPES,
  type CeRule,
  type CeRuleSortColumn,
  type LicenseType,
} from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { deleteAction, editAction, RowActionsMenu } from '../../components/row-actions.tsx';
import { useCeRulesPage, useDeleteCeRule } from './api.ts';
import { CeRuleFormModal } from './ce-rule-form-modal.tsx';
import { CeRuleDrawer, years } from './ce-rule-drawer.tsx';
import { formatHours } from '../../lib/format.ts';

/** On a phone the table keeps State (with a summary line), the topics and the actions. */
const wide = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;
/** Table column -> the server's sort key, where they differ. */
const SORT_KEYS = { topics: 'topic_count' };
const sortKey = (key: string): CeRuleSortColumn =>
  (CE_RULE_SORT_COLUMNS as readonly string[]).includes(key) ? (key as CeRuleSortColumn) : 'state';

/** State CE rules: every signed-in role reads them (they explain a license's requirement); Admins edit. */
export function CeRulesPage() {
  const { can } = useAuth();
  // The row menu's edit and delete and the drawer's edit (ceRules.update, .delete: the same roles in the policy).
  const canEdit = can('ceRules.update');
  const list = useListState({ sort: 'state', filters: { state: '', type: '' } });
  const f = list.filters;
  /** The list's filters and sort as ceRules.page and the CSV export take them. */
  const view = {
    sort: sortKey(list.sort),
    order: list.order,
    state: f.state || undefined,
    license_type: (f.type || undefined) as LicenseType | undefined,
  };
  const query = useCeRulesPage({ ...view, page: list.page, limit: list.limit });
  const remove = useDeleteCeRule();
  const [modal, setModal] = useState<{ opened: boolean; rule: CeRule | null }>({ opened: false, rule: null });
  const [openId, setOpenId] = useState<number | null>(null);
  const [opened, setOpened] = useState<CeRule | null>(null);
  const detail = query.data?.rules.find((r) => r.rule_id === openId) ?? opened;
  const edit = (r: CeRule) => setModal({ opened: true, rule: r });

  const onDelete = async (r: CeRule) => {
    if (!(await confirm(CE_STRINGS.confirmDeleteRule, { confirmLabel: 'Delete' }))) return;
    remove.mutate({ id: r.rule_id }, { onSuccess: () => setOpenId((id) => (id === r.rule_id ? null : id)) });
  };

  return (
    <>
      <PageHeader
        title={CE_STRINGS.rulesTitle}
        description="CE hours each state requires per renewal cycle, by license type, and the topics they must cover."
        actions={
          can('ceRules.create') && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ opened: true, rule: null })}>
              {CE_STRINGS.addRule}
            </Button>
          )
        }
      />
      <Stack>
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
          {CE_STRINGS.seededNote}
          {canEdit ? '' : ' Only an Admin can change the rules.'}
        </Alert>

        <ListToolbar
          list={list}
          fields={[
            { name: 'state', label: 'State', placeholder: 'All states', data: [...LICENSE_STATE_CODES], searchable: true, w: 140 },
            { name: 'type', label: 'License Type', placeholder: 'All types', data: [...LICENSE_TYPES], w: 160 },
          ]}
          exportCsv={{ path: '/api/ce-rules/export', params: view, things: 'CE rules' }}
        />

        <ListTable<CeRule>
          things="CE rules"
          query={query}
          records={query.data?.rules}
          total={query.data?.pagination.total ?? 0}
          idAccessor="rule_id"
          list={list}
          sortKeys={SORT_KEYS}
          emptyText="No CE rules found"
          onOpen={(r) => {
            setOpenId(r.rule_id);
            setOpened(r);
          }}
          actions={
            canEdit
              ? (r) => (
                  <RowActionsMenu
                    label={`Actions for the ${r.state} ${r.license_type} rule`}
                    actions={[editAction(() => edit(r)), deleteAction(() => void onDelete(r))]}
                  />
                )
              : undefined
          }
          columns={[
            {
              accessor: 'state',
              title: 'State',
              sortable: true,
              // A phone's card shows type, hours and cycle as fields of their own.
              renderCard: (r) => <Text fw={600}>{r.state}</Text>,
              render: (r) => (
                <>
                  <Text fw={600}>{r.state}</Text>
                  <Text size="xs" c="dimmed" hiddenFrom="sm">
                    {r.license_type} · {formatHours(r.hours_required)} h / {years(r.cycle_years)}
                  </Text>
                </>
              ),
            },
            { accessor: 'license_type', title: 'License Type', sortable: true, noWrap: true, visibleMediaQuery: wide },
            {
              accessor: 'hours_required',
              title: 'Hours per cycle',
              sortable: true,
              textAlign: 'right',
              visibleMediaQuery: wide,
              render: (r) => formatHours(r.hours_required),
            },
            {
              accessor: 'cycle_years',
              title: 'Cycle',
              sortable: true,
              noWrap: true,
              visibleMediaQuery: wide,
              render: (r) => years(r.cycle_years),
            },
            {
              accessor: 'topics',
              title: 'Required topics',
              sortable: true,
              render: (r) =>
                r.topics.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                ) : (
                  <>
                    <Group gap={4} maw={420} visibleFrom="sm">
                      {r.topics.map((t) => (
                        <Badge key={t.topic} variant="light" color="gray" tt="none">
                          {t.topic}: {formatHours(t.hours)} h
                        </Badge>
                      ))}
                    </Group>
                    <Text size="xs" hiddenFrom="sm">
                      {r.topics.map((t) => `${t.topic}: ${formatHours(t.hours)} h`).join(' · ')}
                    </Text>
                  </>
                ),
            },
            {
              accessor: 'notes',
              title: 'Notes',
              sortable: true,
              visibleMediaQuery: wide,
              render: (r) => (
                <Text size="xs" c="dimmed" lineClamp={3} maw={280}>
                  {r.notes ?? ''}
                </Text>
              ),
            },
          ]}
        />
      </Stack>
      {canEdit && <CeRuleFormModal opened={modal.opened} rule={modal.rule} onClose={() => setModal((m) => ({ ...m, opened: false }))} />}
      <CeRuleDrawer rule={openId === null ? null : detail} onClose={() => setOpenId(null)} onEdit={canEdit ? edit : undefined} />
    </>
  );
}
