import { SimpleGrid } from '@mantine/core';
import {
  IconAlertTriangle,
  IconAlertOctagon,
  IconBook,
  IconCalendarStats,
  IconCertificate,
  IconChecklist,
  IconClockHour4,
  IconCoin,
  IconHourglassLow,
  IconSchool,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import {
  AT_RISK_DAYS,
  DASHBOARD_STRINGS,
  STAT_LABELS,
  type AdminDashboardStats,
  type AgentDashboardStats,
  type BrokerDashboardStats,
  type DashboardStats,
  type RoleName,
  type SchoolDashboardStats,
} from '@lm/shared';
import { StatCard } from '../../components/stat-card.tsx';
import { formatCount, formatDate, formatMoney } from '../../lib/format.ts';
import { LIST_LINKS } from '@lm/shared/list-links';

type StatKey = keyof typeof STAT_LABELS;

/** One card of a role: what it shows of the stats, and the list (filtered as the card counts) it opens. */
interface CardDef<S> {
  key: StatKey;
  icon: Icon;
  color: string;
  value: (s: S) => string;
  hint?: (s: S) => string;
  to: (s: S, me: number) => string;
}

/** The compliance cards (Admin and Broker): the server's counts of licenses at risk and expired. */
const complianceCards: CardDef<AdminDashboardStats | BrokerDashboardStats>[] = [
  {
    key: 'at_risk',
    icon: IconHourglassLow,
    color: 'orange',
    value: (s) => formatCount(s.compliance.at_risk),
    hint: () => DASHBOARD_STRINGS.atRiskHint(AT_RISK_DAYS),
    to: () => LIST_LINKS.atRisk,
  },
  {
    key: 'expired',
    icon: IconAlertOctagon,
    color: 'red',
    value: (s) => formatCount(s.compliance.expired),
    hint: () => DASHBOARD_STRINGS.expiredHint,
    to: () => LIST_LINKS.expired,
  },
];

/**
 * The stat cards of each role (docs/product.md section 3). Every card opens the list it counts, filtered as the
 * server counts it (server/src/modules/dashboard/dashboard.service.ts answers each figure with that list's count).
 */
const CARDS: {
  Admin: CardDef<AdminDashboardStats>[];
  Broker: CardDef<BrokerDashboardStats>[];
  Agent: CardDef<AgentDashboardStats>[];
  School: CardDef<SchoolDashboardStats>[];
} = {
  Admin: [
    { key: 'total_users', icon: IconUsers, color: 'blue', value: (s) => formatCount(s.total_users), to: () => LIST_LINKS.users },
    {
      key: 'total_licenses',
      icon: IconCertificate,
      color: 'green',
      value: (s) => formatCount(s.total_licenses),
      to: () => LIST_LINKS.licenses,
    },
    ...complianceCards,
    {
      key: 'expiring_licenses',
      icon: IconAlertTriangle,
      color: 'yellow',
      value: (s) => formatCount(s.expiring_licenses),
      hint: (s) => DASHBOARD_STRINGS.withinDays(s.expiring_window_days),
      to: (s) => LIST_LINKS.expiring(s.expiring_window_days),
    },
    { key: 'total_courses', icon: IconBook, color: 'grape', value: (s) => formatCount(s.total_courses), to: () => LIST_LINKS.courses },
    {
      key: 'total_completions',
      icon: IconChecklist,
      color: 'teal',
      value: (s) => formatCount(s.total_completions),
      to: () => LIST_LINKS.completions,
    },
    {
      key: 'pending_completions',
      icon: IconClockHour4,
      color: 'yellow',
      value: (s) => formatCount(s.pending_completions),
      to: () => LIST_LINKS.pending,
    },
  ],
  Broker: [
    { key: 'total_agents', icon: IconUsers, color: 'blue', value: (s) => formatCount(s.total_agents), to: () => LIST_LINKS.agents },
    {
      key: 'agent_licenses',
      icon: IconCertificate,
      color: 'green',
      value: (s) => formatCount(s.agent_licenses),
      to: () => LIST_LINKS.licenses,
    },
    ...complianceCards,
    {
      key: 'expiring_agent_licenses',
      icon: IconAlertTriangle,
      color: 'yellow',
      value: (s) => formatCount(s.expiring_agent_licenses),
      hint: (s) => DASHBOARD_STRINGS.withinDays(s.expiring_window_days),
      to: (s) => LIST_LINKS.expiring(s.expiring_window_days),
    },
    {
      key: 'agent_completions',
      icon: IconChecklist,
      color: 'teal',
      value: (s) => formatCount(s.agent_completions),
      to: () => LIST_LINKS.completions,
    },
  ],
  Agent: [
    {
      key: 'my_licenses',
      icon: IconCertificate,
      color: 'green',
      value: (s) => formatCount(s.my_licenses),
      to: () => LIST_LINKS.licenses,
    },
    {
      key: 'my_completions',
      icon: IconChecklist,
      color: 'teal',
      value: (s) => formatCount(s.my_completions),
      to: () => LIST_LINKS.completions,
    },
    {
      key: 'my_payments',
      icon: IconCoin,
      color: 'blue',
      value: (s) => formatMoney(s.my_payments),
      hint: () => DASHBOARD_STRINGS.completedPayments,
      to: () => LIST_LINKS.completedPayments,
    },
  ],
  School: [
    {
      key: 'pending_completions',
      icon: IconClockHour4,
      color: 'yellow',
      value: (s) => formatCount(s.pending_completions),
      to: () => LIST_LINKS.pending,
    },
    {
      key: 'completions_this_month',
      icon: IconCalendarStats,
      color: 'teal',
      value: (s) => formatCount(s.completions_this_month),
      hint: (s) => DASHBOARD_STRINGS.sinceDate(formatDate(s.month_start)),
      to: (s) => LIST_LINKS.completedSince(s.month_start),
    },
    {
      key: 'course_completions',
      icon: IconChecklist,
      color: 'teal',
      value: (s) => formatCount(s.course_completions),
      to: () => LIST_LINKS.completions,
    },
    {
      key: 'my_courses',
      icon: IconSchool,
      color: 'grape',
      value: (s) => formatCount(s.my_courses),
      to: (_, me) => LIST_LINKS.coursesOf(me),
    },
  ],
};

/** Full rows, wide enough for the labels and hints: eight cards in fours, six in threes, four in one row, three in one. */
const perRow = (n: number) => (n % 4 === 0 ? 4 : Math.min(n, 3));

/**
 * The role's stat cards. While the figures load, the same cards (label, icon, a hint's line) with a placeholder
 * figure: the role is known from the session, so the grid keeps its final size and nothing moves when they arrive.
 */
export function StatCards({ role, me, stats }: { role: RoleName; me: number; stats: DashboardStats | undefined }) {
  const defs = CARDS[role] as CardDef<DashboardStats>[];
  const ready = stats?.role === role ? stats : undefined;
  return (
    <SimpleGrid cols={{ base: 2, md: perRow(defs.length) }} spacing={{ base: 'xs', sm: 'md' }} data-testid="stat-cards">
      {defs.map((c) => (
        <StatCard
          key={c.key}
          label={STAT_LABELS[c.key]}
          value={ready ? c.value(ready) : null}
          loading={!ready}
          icon={<c.icon size={22} />}
          color={c.color}
          // A hint's line is kept while loading (a no-break space), so the card does not grow when it arrives.
          hint={c.hint ? (ready ? c.hint(ready) : '\u00a0') : undefined}
          testId={c.key}
          to={ready ? c.to(ready, me) : undefined}
        />
      ))}
    </SimpleGrid>
  );
}
