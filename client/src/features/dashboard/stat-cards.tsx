import { SimpleGrid, Skeleton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconAlertOctagon,
  IconBook,
  IconCertificate,
  IconChecklist,
  IconClockHour4,
  IconCoin,
  IconHourglassLow,
  IconSchool,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { AT_RISK_DAYS, DASHBOARD_STRINGS, STAT_LABELS, type AdminDashboardStats, type DashboardStats } from '@lm/shared';
import { StatCard } from '../../components/stat-card.tsx';
import { formatCount, formatMoney } from '../../lib/format.ts';

type StatKey = keyof typeof STAT_LABELS;
interface StatCardDef {
  key: StatKey;
  value: string;
  icon: Icon;
  color: string;
  hint?: string;
  /** The list the card opens. */
  to?: string;
}

/** The routes the cards open: each list filtered as the card counts. */
const LINKS = {
  licenses: '/licenses',
  atRisk: '/licenses?compliance=at_risk',
  expired: '/licenses?compliance=expired',
  expiring: (days: number) => `/licenses?expiring_within=${days}`,
  users: '/users',
  agents: '/users?role=Agent',
  courses: '/courses',
  completions: '/courses?tab=completions',
  pending: '/courses?tab=completions&completion_status=Pending',
} as const;

/** The compliance cards (Admin and Broker): the server's counts of licenses at risk and expired. */
function complianceCards(compliance: AdminDashboardStats['compliance']): StatCardDef[] {
  return [
    {
      key: 'at_risk',
      value: formatCount(compliance.at_risk),
      icon: IconHourglassLow,
      color: 'orange',
      hint: DASHBOARD_STRINGS.atRiskHint(AT_RISK_DAYS),
      to: LINKS.atRisk,
    },
    {
      key: 'expired',
      value: formatCount(compliance.expired),
      icon: IconAlertOctagon,
      color: 'red',
      hint: DASHBOARD_STRINGS.expiredHint,
      to: LINKS.expired,
    },
  ];
}

/** The stat cards of each role (docs/product.md section 3); Admin's and Broker's open the lists they count. */
function cardsFor(stats: DashboardStats): StatCardDef[] {
  switch (stats.role) {
    case 'Admin':
      return [
        { key: 'total_users', value: formatCount(stats.total_users), icon: IconUsers, color: 'blue', to: LINKS.users },
        { key: 'total_licenses', value: formatCount(stats.total_licenses), icon: IconCertificate, color: 'green', to: LINKS.licenses },
        ...complianceCards(stats.compliance),
        {
          key: 'expiring_licenses',
          value: formatCount(stats.expiring_licenses),
          icon: IconAlertTriangle,
          color: 'yellow',
          hint: DASHBOARD_STRINGS.withinDays(stats.expiring_window_days),
          to: LINKS.expiring(stats.expiring_window_days),
        },
        { key: 'total_courses', value: formatCount(stats.total_courses), icon: IconBook, color: 'grape', to: LINKS.courses },
        {
          key: 'total_completions',
          value: formatCount(stats.total_completions),
          icon: IconChecklist,
          color: 'teal',
          to: LINKS.completions,
        },
        {
          key: 'pending_completions',
          value: formatCount(stats.pending_completions),
          icon: IconClockHour4,
          color: 'yellow',
          to: LINKS.pending,
        },
      ];
    case 'Broker':
      return [
        { key: 'total_agents', value: formatCount(stats.total_agents), icon: IconUsers, color: 'blue', to: LINKS.agents },
        { key: 'agent_licenses', value: formatCount(stats.agent_licenses), icon: IconCertificate, color: 'green', to: LINKS.licenses },
        ...complianceCards(stats.compliance),
        {
          key: 'expiring_agent_licenses',
          value: formatCount(stats.expiring_agent_licenses),
          icon: IconAlertTriangle,
          color: 'yellow',
          hint: DASHBOARD_STRINGS.withinDays(stats.expiring_window_days),
          to: LINKS.expiring(stats.expiring_window_days),
        },
        {
          key: 'agent_completions',
          value: formatCount(stats.agent_completions),
          icon: IconChecklist,
          color: 'teal',
          to: LINKS.completions,
        },
      ];
    case 'Agent':
      return [
        { key: 'my_licenses', value: formatCount(stats.my_licenses), icon: IconCertificate, color: 'green' },
        { key: 'my_completions', value: formatCount(stats.my_completions), icon: IconChecklist, color: 'teal' },
        {
          key: 'my_payments',
          value: formatMoney(stats.my_payments),
          icon: IconCoin,
          color: 'blue',
          hint: DASHBOARD_STRINGS.completedPayments,
        },
      ];
    case 'School':
      return [
        { key: 'my_courses', value: formatCount(stats.my_courses), icon: IconSchool, color: 'grape' },
        { key: 'course_completions', value: formatCount(stats.course_completions), icon: IconChecklist, color: 'teal' },
        { key: 'pending_completions', value: formatCount(stats.pending_completions), icon: IconClockHour4, color: 'yellow' },
      ];
  }
}

export function StatCards({ stats, loading }: { stats: DashboardStats | undefined; loading: boolean }) {
  if (loading || !stats) {
    return (
      <SimpleGrid cols={{ base: 2, md: 3, xl: 6 }} spacing={{ base: 'xs', sm: 'md' }}>
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} h={96} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  const cards = cardsFor(stats);
  // Full rows, wide enough for the labels and hints: eight cards in fours, six in threes, three in one row.
  const n = cards.length;
  const perRow = n % 4 === 0 ? 4 : Math.min(n, 3);
  return (
    <SimpleGrid cols={{ base: 2, md: perRow }} spacing={{ base: 'xs', sm: 'md' }}>
      {cards.map((c) => (
        <StatCard
          key={c.key}
          label={STAT_LABELS[c.key]}
          value={c.value}
          icon={<c.icon size={22} />}
          color={c.color}
          hint={c.hint}
          testId={c.key}
          to={c.to}
        />
      ))}
    </SimpleGrid>
  );
}
