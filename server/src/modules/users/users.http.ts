/** GET /api/users/export: the User Management screen's filtered, sorted view as CSV (server/src/http/list-export.ts). */
import { usersListQuery, type User } from '@lm/shared';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { listUsers } from './users.service.ts';

export const usersExport = listExports({
  path: '/users/export',
  name: 'users',
  action: 'users.read',
  query: usersListQuery,
  page: async (ctx, q, cursor, limit) => {
    const p = await listUsers(ctx, { ...q, cursor, limit });
    return chunkOf(p.users, p);
  },
  rows: 'One row per user in your scope (Broker: its own brokerage) matching the filters of GET /users (role, brokerage_id, search, is_active), in its sort and order',
  parameters: ['role', 'brokerage_id', 'search', 'is_active', 'sort', 'order'].map((name) => ({ name })),
  columns: [
    { header: 'User ID', value: (u: User) => u.user_id },
    { header: 'First Name', value: (u: User) => u.first_name },
    { header: 'Last Name', value: (u: User) => u.last_name },
    { header: 'Email', value: (u: User) => u.email },
    { header: 'Role', value: (u: User) => u.role_name },
    { header: 'Brokerage', value: (u: User) => u.brokerage_name ?? '' },
    { header: 'Status', value: (u: User) => (u.is_active ? 'Active' : 'Inactive') },
    { header: 'Phone', value: (u: User) => u.phone_number ?? '' },
    { header: 'Address', value: (u: User) => u.address ?? '' },
    { header: 'City', value: (u: User) => u.city ?? '' },
    { header: 'State', value: (u: User) => u.state ?? '' },
    { header: 'Zip Code', value: (u: User) => u.zip_code ?? '' },
    { header: 'Last Login', value: (u: User) => u.last_login ?? '' },
    { header: 'Created', value: (u: User) => u.created_at },
  ],
});
