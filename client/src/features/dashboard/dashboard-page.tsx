import { Skeleton, Stack, Title } from '@mantine/core';
import { DASHBOARD_STRINGS, DEFAULT_EXPIRING_WINDOW, EXPIRING_CARD_LIMIT, greetingName } from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useDashboardStats, useExpiringLicenses, usePendingApprovals, useRecentActivity } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { StatCards } from './stat-cards.tsx';
import { RecentActivityCard } from './recent-activity-card.tsx';
import { ExpiringLicensesCard } from './expiring-licenses-card.tsx';
import { PendingApprovalsCard } from './pending-approvals-card.tsx';
import { CeProgressCard } from './ce-progress-card.tsx';
import classes from './dashboard.module.css';

/** The panels' placeholder height while their data loads (about a panel of five rows). */
const PANEL_PLACEHOLDER = 320;

/**
 * The dashboard (docs/product.md section 2): the role's stat cards, each opening the list it counts; then what the
 * role acts on first (a School: the completions waiting for its approval; others: expiring licenses), an Agent's
 * CE card per license, and Recent Activity last. Nothing moves while it loads: the cards are laid out from the
 * session's role before their figures arrive, and the panels appear together once their first data is in (a
 * placeholder of their size before), so no panel pushes another down (docs/decisions.md "Dashboards: every figure a way in").
 */
export function DashboardPage() {
  const { user, role } = useAuth();
  const stats = useDashboardStats();
  const school = role === 'School';
  // The same queries as the panels' own (react-query shares them): the page waits for their first answer.
  const expiring = useExpiringLicenses(DEFAULT_EXPIRING_WINDOW, EXPIRING_CARD_LIMIT, !school);
  const pending = usePendingApprovals(school);
  const activity = useRecentActivity();
  const first = school ? pending : expiring;
  const settled = !stats.isLoading && !first.isLoading && !activity.isLoading;
  if (!user || !role) return null;
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {DASHBOARD_STRINGS.greeting(greetingName(user))}
      </Title>
      {stats.isError ? (
        <QueryError things="dashboard statistics" query={stats} />
      ) : (
        <StatCards role={role} me={user.user_id} stats={stats.data} />
      )}
      {settled ? (
        <div className={classes.panels}>
          {school ? <PendingApprovalsCard /> : <ExpiringLicensesCard />}
          {stats.data?.role === 'Agent' && (
            <div className={classes.wide}>
              <CeProgressCard progress={stats.data.ce_progress} licenses={stats.data.ce_licenses} />
            </div>
          )}
          <RecentActivityCard />
        </div>
      ) : (
        <div className={classes.panels} aria-busy="true">
          <Skeleton h={PANEL_PLACEHOLDER} radius="md" />
          <Skeleton h={PANEL_PLACEHOLDER} radius="md" />
        </div>
      )}
    </Stack>
  );
}
