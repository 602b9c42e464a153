import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Menu, Select, Stack, Text, type MantineTheme } from '@mantine/core';
import { IconDots, IconEdit, IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { CE_STRINGS, LICENSE_STATE_CODES, type CeRule } from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { useCeRules, useDeleteCeRule } from './api.ts';
import { CeRuleFormModal } from './ce-rule-form-modal.tsx';
import { formatHours } from '../../lib/format.ts';

const DELETE_FAILED = CE_STRINGS.deleteRuleFailed;
const years = (n: number) => `${n} ${n === 1 ? 'year' : 'years'}`;
/** On a phone the table keeps State (with a summary line), the topics and the actions. */
const wide = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;

/** State CE rules: every signed-in role reads them (they explain a license's requirement); Admins edit. */
export function CeRulesPage() {
  const { hasRole } = useAuth();
  const canEdit = hasRole('Admin');
  const query = useCeRules();
  const remove = useDeleteCeRule();
  const [filters, setFilters] = useUrlState({ state: '' });
  const [modal, setModal] = useState<{ opened: boolean; rule: CeRule | null }>({ opened: false, rule: null });

  const rows = useMemo(() => {
    const all = [...(query.data ?? [])].sort((a, b) => a.state.localeCompare(b.state) || a.license_type.localeCompare(b.license_type));
    return filters.state ? all.filter((r) => r.state === filters.state) : all;
  }, [query.data, filters.state]);

  const onDelete = async (r: CeRule) => {
    if (!(await confirm(CE_STRINGS.confirmDeleteRule, { confirmLabel: 'Delete' }))) return;
    remove.mutate(
      { id: r.rule_id },
      {
        onSuccess: () => notify.success(CE_STRINGS.ruleDeleted),
        onError: (err) => notify.failure(err, DELETE_FAILED),
      },
    );
  };

  return (
    <>
      <PageHeader
        title={CE_STRINGS.rulesTitle}
        description="CE hours each state requires per renewal cycle, by license type, and the topics they must cover."
        actions={
          canEdit && (
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

        <Group align="flex-end">
          <Select
            label="State"
            placeholder="All states"
            data={[...LICENSE_STATE_CODES]}
            value={filters.state || null}
            onChange={(v) => setFilters({ state: v ?? '' })}
            searchable
            clearable
            w={140}
          />
        </Group>

        {query.isError ? (
          <QueryError things="CE rules" query={query} />
        ) : (
          <DataTable<CeRule>
            withTableBorder
            borderRadius="md"
            striped
            minHeight={rows.length ? undefined : 180}
            fetching={query.isLoading}
            records={rows}
            idAccessor="rule_id"
            noRecordsText="No CE rules found"
            columns={[
              {
                accessor: 'state',
                title: 'State',
                render: (r) => (
                  <>
                    <Text fw={600}>{r.state}</Text>
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      {r.license_type} · {formatHours(r.hours_required)} h / {years(r.cycle_years)}
                    </Text>
                  </>
                ),
              },
              { accessor: 'license_type', title: 'License Type', noWrap: true, visibleMediaQuery: wide },
              {
                accessor: 'hours_required',
                title: 'Hours per cycle',
                textAlign: 'right',
                visibleMediaQuery: wide,
                render: (r) => formatHours(r.hours_required),
              },
              { accessor: 'cycle_years', title: 'Cycle', noWrap: true, visibleMediaQuery: wide, render: (r) => years(r.cycle_years) },
              {
                accessor: 'topics',
                title: 'Required topics',
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
                visibleMediaQuery: wide,
                render: (r) => (
                  <Text size="xs" c="dimmed" lineClamp={3} maw={280}>
                    {r.notes ?? ''}
                  </Text>
                ),
              },
              {
                accessor: 'actions',
                title: 'Actions',
                textAlign: 'center',
                hidden: !canEdit,
                render: (r) => (
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={`Actions for the ${r.state} ${r.license_type} rule`}>
                        <IconDots size={18} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => setModal({ opened: true, rule: r })}>
                        Edit
                      </Menu.Item>
                      <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => void onDelete(r)}>
                        Delete
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                ),
              },
            ]}
          />
        )}
      </Stack>
      {canEdit && <CeRuleFormModal opened={modal.opened} rule={modal.rule} onClose={() => setModal((m) => ({ ...m, opened: false }))} />}
    </>
  );
}
