import { Grid, Stack, Table } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import { REPORT_STRINGS } from '@lm/shared';
import { useUserReport } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { EmptyChart, Figure, Figures, FiguresSkeleton, Section } from './parts.tsx';
import type { ReportQuery } from './export-report.ts';

export function UserTab({ filters }: { filters: ReportQuery }) {
  const q = useUserReport(filters);
  if (q.isError) return <QueryError things="user analytics" query={q} fallback={REPORT_STRINGS.fetchUsersFailed} />;
  if (!q.data) return <FiguresSkeleton />;
  const d = q.data;
  const withPeople = d.brokerage_stats.filter((b) => b.total > 0).slice(0, 12);
  return (
    <Stack>
      <Figures>
        <Figure label="New Users This Period" value={d.new_users_this_period} />
        <Figure label="Active Users" value={d.active_users} />
        <Figure label="Inactive Users" value={d.inactive_users} />
        <Figure label="Average Logins per Week" value={d.avg_login_frequency.toFixed(2)} />
      </Figures>
      <Section title="Users by Brokerage">
        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Table striped highlightOnHover data-testid="users-by-brokerage">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Brokerage</Table.Th>
                  <Table.Th ta="right">Brokers</Table.Th>
                  <Table.Th ta="right">Agents</Table.Th>
                  <Table.Th ta="right">Total</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.brokerage_stats.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={4} c="dimmed" ta="center">
                      No brokerages yet
                    </Table.Td>
                  </Table.Tr>
                )}
                {d.brokerage_stats.map((b) => (
                  <Table.Tr key={b.brokerage_id}>
                    <Table.Td>{b.name}</Table.Td>
                    <Table.Td ta="right">{b.brokers}</Table.Td>
                    <Table.Td ta="right">{b.agents}</Table.Td>
                    <Table.Td ta="right">{b.total}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            {withPeople.length > 0 ? (
              <BarChart
                h={Math.max(200, withPeople.length * 30)}
                data={withPeople.map((b) => ({ name: b.name, Brokers: b.brokers, Agents: b.agents }))}
                dataKey="name"
                type="stacked"
                orientation="vertical"
                yAxisProps={{ width: 140 }}
                xAxisProps={{ allowDecimals: false }}
                withLegend
                series={[
                  { name: 'Brokers', color: 'blue.6' },
                  { name: 'Agents', color: 'green.6' },
                ]}
              />
            ) : (
              <EmptyChart />
            )}
          </Grid.Col>
        </Grid>
      </Section>
    </Stack>
  );
}
