/** GET /api/ce-rules/export: the State CE Rules list's filtered, sorted view as CSV (server/src/http/list-export.ts). */
import { ceRulePageQuery, type CeRule } from '@lm/shared';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { pageRules } from './ce-rules.service.ts';

export const ceRulesExport = listExports({
  path: '/ce-rules/export',
  name: 'ce-rules',
  action: 'ceRules.read',
  query: ceRulePageQuery,
  page: async (ctx, q, cursor, limit) => {
    const p = await pageRules(ctx, { ...q, cursor, limit });
    return chunkOf(p.rules, p);
  },
  rows: 'One row per state CE rule matching the filters of GET /ce-rules/page (state, license_type), in its sort and order; topics as "topic: hours" joined with "; "',
  parameters: ['state', 'license_type', 'sort', 'order'].map((name) => ({ name })),
  columns: [
    { header: 'Rule ID', value: (r: CeRule) => r.rule_id },
    { header: 'State', value: (r: CeRule) => r.state },
    { header: 'License Type', value: (r: CeRule) => r.license_type },
    { header: 'Hours per Cycle', value: (r: CeRule) => r.hours_required },
    { header: 'Cycle Years', value: (r: CeRule) => r.cycle_years },
    { header: 'Required Topics', value: (r: CeRule) => r.topics.map((t) => `${t.topic}: ${t.hours}`).join('; ') },
    { header: 'Notes', value: (r: CeRule) => r.notes ?? '' },
  ],
});
