import { Box, Grid, Group, Stack } from '@mantine/core';
import { DonutChart } from '@mantine/charts';
import { reportRoleColor, REPORT_STRINGS, REVENUE_LABELS } from '@lm/shared';
import { useSystemStats } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { EmptyChart, Figure, Figures, FiguresSkeleton, Section, ShareTable } from './parts.tsx';
import { statusColor } from './colors.ts';
import type { ReportQuery } from './export-report.ts';
import { formatMoney } from '../../lib/format.ts';

export function OverviewTab({ filters }: { filters: ReportQuery }) {
  const stats = useSystemStats({ start_date: filters.start_date, end_date: filters.end_date });
  if (stats.isError) return <QueryError things="system statistics" query={stats} fallback={REPORT_STRINGS.fetchStatsFailed} />;
  if (!stats.data) return <FiguresSkeleton />;
  const { users, licenses, courses, payments } = stats.data;
  const roles = users.by_role.map((r) => ({ name: r.role_name, count: r.count, color: reportRoleColor(r.role_name) }));
  const statuses = licenses.by_status.map((s) => ({ name: s.status, count: s.count, color: statusColor(s.status) }));
  return (
    <Stack>
      <Figures>
        <Figure label="Total Users" value={users.total} />
        <Figure label="Total Licenses" value={licenses.total} />
        <Figure label="Total Courses" value={courses.total} />
        <Figure label={REVENUE_LABELS.period} value={formatMoney(payments.total_amount)} hint="Completed payments dated in the period" />
      </Figures>
      <Grid>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Section title={REPORT_STRINGS.usersByRole}>
            <Group align="center" wrap="wrap" gap="lg">
              <Box style={{ flex: '1 1 250px' }}>
                <ShareTable label="Role" rows={roles} total={users.total} testId="users-by-role" />
              </Box>
              <Box style={{ flex: '0 0 auto' }} mx="auto">
                {users.total > 0 ? (
                  <DonutChart
                    mx="auto"
                    size={160}
                    thickness={26}
                    withTooltip
                    chartLabel={users.total}
                    data={roles.filter((r) => r.count > 0).map((r) => ({ name: r.name, value: r.count, color: `${r.color}.6` }))}
                  />
                ) : (
                  <EmptyChart />
                )}
              </Box>
            </Group>
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Section title={REPORT_STRINGS.licensesByStatus}>
            <Group align="center" wrap="wrap" gap="lg">
              <Box style={{ flex: '1 1 250px' }}>
                <ShareTable label="Status" rows={statuses} total={licenses.total} testId="licenses-by-status" />
              </Box>
              <Box style={{ flex: '0 0 auto' }} mx="auto">
                {licenses.total > 0 ? (
                  <DonutChart
                    mx="auto"
                    size={160}
                    thickness={26}
                    withTooltip
                    chartLabel={licenses.total}
                    data={statuses.filter((s) => s.count > 0).map((s) => ({ name: s.name, value: s.count, color: `${s.color}.6` }))}
                  />
                ) : (
                  <EmptyChart />
                )}
              </Box>
            </Group>
          </Section>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
