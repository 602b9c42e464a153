import { SimpleGrid, Stack, Title } from '@mantine/core';
import { DASHBOARD_STRINGS } from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useDashboardStats } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { StatCards } from './stat-cards.tsx';
import { RecentActivityCard } from './recent-activity-card.tsx';
import { ExpiringLicensesCard } from './expiring-licenses-card.tsx';
import { CeProgressCard } from './ce-progress-card.tsx';

/**
 * The dashboard (docs/product.md section 2): stat cards per role (Admin's and Broker's open their lists), recent
 * activity, expiring licenses, and an Agent's CE card per license.
 */
export function DashboardPage() {
  const { user } = useAuth();
  const stats = useDashboardStats();
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {DASHBOARD_STRINGS.greeting(user?.first_name ?? '')}
      </Title>
      {stats.isError && <QueryError things="dashboard statistics" query={stats} />}
      {!stats.isError && <StatCards stats={stats.data} loading={stats.isLoading} />}
      {stats.data?.role === 'Agent' && <CeProgressCard progress={stats.data.ce_progress} licenses={stats.data.ce_licenses} />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <RecentActivityCard />
        <ExpiringLicensesCard />
      </SimpleGrid>
    </Stack>
  );
}
