import { Grid, Stack, Table } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import { REPORT_STRINGS } from '@lm/shared';
import { useCourseReport } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { EmptyChart, Figure, Figures, FiguresSkeleton, Section } from './parts.tsx';
import type { ReportQuery } from './export-report.ts';

export function CourseTab({ filters }: { filters: ReportQuery }) {
  const q = useCourseReport(filters);
  if (q.isError) return <QueryError things="course analytics" query={q} fallback={REPORT_STRINGS.fetchCoursesFailed} />;
  if (!q.data) return <FiguresSkeleton />;
  const d = q.data;
  return (
    <Stack>
      <Figures>
        <Figure label="Total Courses" value={d.total_courses} />
        <Figure label="Completions This Period" value={d.completions_this_period} />
        <Figure label="Pending Approvals" value={d.pending_approvals} />
        <Figure label="Average Completion Time" value={`${d.avg_completion_time.toFixed(1)} days`} hint="From submission to approval" />
      </Figures>
      <Grid>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Section title="Most Popular Courses">
            <Table striped highlightOnHover data-testid="top-courses">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Course</Table.Th>
                  <Table.Th ta="right">Completions</Table.Th>
                  <Table.Th ta="right">Avg Rating</Table.Th>
                  <Table.Th ta="right">CE Hours</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.top_courses.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={4} c="dimmed" ta="center">
                      No completions in this period
                    </Table.Td>
                  </Table.Tr>
                )}
                {d.top_courses.map((c) => (
                  <Table.Tr key={c.course_id}>
                    <Table.Td>{c.title}</Table.Td>
                    <Table.Td ta="right">{c.completions}</Table.Td>
                    <Table.Td ta="right">{c.avg_rating === null ? '-' : c.avg_rating.toFixed(1)}</Table.Td>
                    <Table.Td ta="right">{c.ce_hours}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Section title="Completions over the Period">
            {d.completions_by_date.length > 0 ? (
              <BarChart
                h={260}
                data={d.completions_by_date.map((x) => ({ date: x.date.slice(5), Completions: x.completions }))}
                dataKey="date"
                yAxisProps={{ allowDecimals: false }}
                series={[{ name: 'Completions', color: 'teal.6' }]}
              />
            ) : (
              <EmptyChart />
            )}
          </Section>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
