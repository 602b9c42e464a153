import { Grid, Stack, Table } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import { REPORT_STRINGS } from '@lm/shared';
import { useLicenseReport } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { EmptyChart, Figure, Figures, FiguresSkeleton, Section } from './parts.tsx';
import type { ReportQuery } from './export-report.ts';
import { formatCount } from '../../lib/format.ts';

export function LicenseTab({ filters }: { filters: ReportQuery }) {
  const q = useLicenseReport(filters);
  if (q.isError) return <QueryError things="license analytics" query={q} fallback={REPORT_STRINGS.fetchLicensesFailed} />;
  if (!q.data) return <FiguresSkeleton />;
  const d = q.data;
  return (
    <Stack>
      <Figures>
        <Figure label="Expiring Soon (30 days)" value={d.expiring_soon} />
        <Figure label="Expired Licenses" value={d.expired} />
        <Figure label="Renewed This Period" value={d.renewed_this_period} />
        <Figure label="States" value={d.top_states.length} />
      </Figures>
      <Section title="Licenses by State">
        <Grid>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Table striped highlightOnHover data-testid="licenses-by-state">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>State</Table.Th>
                  <Table.Th ta="right">Active</Table.Th>
                  <Table.Th ta="right">Expired</Table.Th>
                  <Table.Th ta="right">Total</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.top_states.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={4} c="dimmed" ta="center">
                      No licenses match these filters
                    </Table.Td>
                  </Table.Tr>
                )}
                {d.top_states.map((s) => (
                  <Table.Tr key={s.state}>
                    <Table.Td>{s.state}</Table.Td>
                    <Table.Td ta="right">{formatCount(s.active)}</Table.Td>
                    <Table.Td ta="right">{formatCount(s.expired)}</Table.Td>
                    <Table.Td ta="right">{formatCount(s.total)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            {d.top_states.length > 0 ? (
              <BarChart
                h={Math.max(220, Math.min(d.top_states.length, 15) * 28)}
                data={d.top_states
                  .slice(0, 15)
                  .map((s) => ({ state: s.state, Active: s.active, Expired: s.expired, Other: s.total - s.active - s.expired }))}
                dataKey="state"
                type="stacked"
                orientation="vertical"
                yAxisProps={{ width: 40 }}
                xAxisProps={{ allowDecimals: false }}
                withLegend
                series={[
                  { name: 'Active', color: 'green.6' },
                  { name: 'Expired', color: 'red.6' },
                  { name: 'Other', color: 'gray.5' },
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
