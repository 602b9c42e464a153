import { Chip, Group, Text } from '@mantine/core';
import { COMPLIANCE_COLORS, COMPLIANCE_LABELS, COMPLIANCE_STATES, LICENSE_STRINGS, type ComplianceSummary } from '@lm/shared';
import { formatCount } from '../../lib/format.ts';

const ALL = 'all';

/**
 * The compliance filter above the Licenses table: one choice of "All" and the four states, each with how many
 * licenses of the screen's other filters are in it (the server's compliance summary). Radio chips: Tab reaches the
 * group, the arrow keys move the choice. The counts are left out while they load or when they fail (the table
 * shows the error).
 */
export function ComplianceFilter({
  value,
  onChange,
  summary,
}: {
  value: string;
  onChange: (value: string) => void;
  summary: ComplianceSummary | undefined;
}) {
  const total = summary ? COMPLIANCE_STATES.reduce((sum, s) => sum + summary[s], 0) : undefined;
  const count = (n: number | undefined) =>
    n === undefined ? null : (
      <>
        {' '}
        <Text span fw={700} ml={2} fz="inherit" data-testid="compliance-count">
          {formatCount(n)}
        </Text>
      </>
    );
  return (
    <Chip.Group value={value || ALL} onChange={(v) => onChange(v === ALL ? '' : v)}>
      <Group gap="xs" role="radiogroup" aria-label={LICENSE_STRINGS.complianceFilter} data-testid="compliance-filter">
        <Chip value={ALL} type="radio" name="compliance" color="gray" variant="outline">
          {LICENSE_STRINGS.complianceAll}
          {count(total)}
        </Chip>
        {COMPLIANCE_STATES.map((s) => (
          <Chip key={s} value={s} type="radio" name="compliance" color={COMPLIANCE_COLORS[s]} variant="outline">
            {COMPLIANCE_LABELS[s]}
            {count(summary?.[s])}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
}
