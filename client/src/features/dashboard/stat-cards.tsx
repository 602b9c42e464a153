import { SimpleGrid, Skeleton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBook,
  IconCertificate,
  IconChecklist,
  IconClockHour4,
  IconCoin,
  IconSchool,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { STAT_LABELS, type DashboardStats } from '@lm/shared';
import { StatCard } from '../../components/stat-card.tsx';
import { formatCount, formatMoney } from '../../lib/format.ts';

type StatKey = keyof typeof STAT_LABELS;
interface StatCardDef {
  key: StatKey;
  value: string;
  icon: Icon;
  color: string;
  hint?: string;
}

/** The stat cards of each role (docs/product.md section 3). */
function cardsFor(stats: DashboardStats): StatCardDef[] {
  switch (stats.role) {
    case 'Admin':
      return [
        { key: 'total_users', value: formatCount(stats.total_users), icon: IconUsers, color: 'blue' },
        { key: 'total_licenses', value: formatCount(stats.total_licenses), icon: IconCertificate, color: 'green' },
        {
          key: 'expiring_licenses',
          value: formatCount(stats.expiring_licenses),
          icon: IconAlertTriangle,
          color: 'orange',
          hint: `Within ${stats.expiring_window_days} days`,
        },
        { key: 'total_courses', value: formatCount(stats.total_courses), icon: IconBook, color: 'grape' },
        { key: 'total_completions', value: formatCount(stats.total_completions), icon: IconChecklist, color: 'teal' },
        { key: 'pending_completions', value: formatCount(stats.pending_completions), icon: IconClockHour4, color: 'yellow' },
      ];
    case 'Broker':
      return [
        { key: 'total_agents', value: formatCount(stats.total_agents), icon: IconUsers, color: 'blue' },
        { key: 'agent_licenses', value: formatCount(stats.agent_licenses), icon: IconCertificate, color: 'green' },
        {
          key: 'expiring_agent_licenses',
          value: formatCount(stats.expiring_agent_licenses),
          icon: IconAlertTriangle,
          color: 'orange',
          hint: `Within ${stats.expiring_window_days} days`,
        },
        { key: 'agent_completions', value: formatCount(stats.agent_completions), icon: IconChecklist, color: 'teal' },
      ];
    case 'Agent':
      return [
        { key: 'my_licenses', value: formatCount(stats.my_licenses), icon: IconCertificate, color: 'green' },
        { key: 'my_completions', value: formatCount(stats.my_completions), icon: IconChecklist, color: 'teal' },
        { key: 'my_payments', value: formatMoney(stats.my_payments), icon: IconCoin, color: 'blue', hint: 'Completed payments' },
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
  return (
    <SimpleGrid
      cols={{ base: 2, md: 3, lg: cards.length > 4 ? 3 : cards.length, xl: cards.length > 4 ? 6 : cards.length }}
      spacing={{ base: 'xs', sm: 'md' }}
    >
      {cards.map((c) => (
        <StatCard
          key={c.key}
          label={STAT_LABELS[c.key]}
          value={c.value}
          icon={<c.icon size={22} />}
          color={c.color}
          hint={c.hint}
          testId={c.key}
        />
      ))}
    </SimpleGrid>
  );
}
