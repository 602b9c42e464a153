/** GET /api/brokerages/export: the Brokerage Management screen's searched, sorted view as CSV (server/src/http/list-export.ts). */
import { brokeragesListQuery, type Brokerage } from '@lm/shared';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { listBrokerages } from './brokerages.service.ts';

export const brokeragesExport = listExports({
  path: '/brokerages/export',
  name: 'brokerages',
  action: 'brokerages.read',
  query: brokeragesListQuery,
  page: async (ctx, q, cursor, limit) => {
    const p = await listBrokerages(ctx, { ...q, cursor, limit });
    return chunkOf(p.brokerages, p);
  },
  rows: 'One row per brokerage matching the search of GET /brokerages, in its sort and order',
  parameters: ['search', 'sort', 'order'].map((name) => ({ name })),
  columns: [
    { header: 'Brokerage ID', value: (b: Brokerage) => b.brokerage_id },
    { header: 'Name', value: (b: Brokerage) => b.name },
    { header: 'Address', value: (b: Brokerage) => b.address ?? '' },
    { header: 'Phone', value: (b: Brokerage) => b.phone ?? '' },
    { header: 'Email', value: (b: Brokerage) => b.email ?? '' },
    { header: 'Website', value: (b: Brokerage) => b.website ?? '' },
    { header: 'Agents', value: (b: Brokerage) => b.agent_count },
    { header: 'Created', value: (b: Brokerage) => b.created_at },
  ],
});
