/** Canonical role ids (docs/decisions.md): the same numbers in the database, the API and every form. */
export const ROLE = { Admin: 1, Broker: 2, Agent: 3, School: 4 } as const;
export type RoleName = keyof typeof ROLE;
export type RoleId = (typeof ROLE)[RoleName];

export const ROLE_IDS = [1, 2, 3, 4] as const satisfies readonly RoleId[];
export const ROLE_NAMES = ['Admin', 'Broker', 'Agent', 'School'] as const satisfies readonly RoleName[];

const NAME_BY_ID: Record<RoleId, RoleName> = { 1: 'Admin', 2: 'Broker', 3: 'Agent', 4: 'School' };

export function roleName(id: number): RoleName {
  const name = NAME_BY_ID[id as RoleId];
  if (!name) throw new Error(`Unknown role id ${id}`);
  return name;
}

export function isRoleId(id: unknown): id is RoleId {
  return typeof id === 'number' && id in NAME_BY_ID;
}

/** The default role of the new-user form (docs/product.md section 3). */
export const DEFAULT_NEW_USER_ROLE: RoleId = ROLE.Broker;
