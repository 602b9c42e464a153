/**
 * The rules of the users domain (docs/decisions.md): Admin manages everyone; a Broker sees the users of
 * its own brokerage and may create, edit and delete only the Agents there; everything else is 404
 * (out of scope) or 403 (a role it may not grant). Delete is soft: the row stays for history.
 *
 * Every rule that decides a write (the e-mail is free, the target is in scope, self-protection, an
 * active Admin remains) is checked inside the transaction that writes (docs/architecture.md "Data
 * layer"); passwords are hashed before it and e-mails are sent after it.
 */
import { and, asc, count, eq, gt, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import {
  can,
  PROFILE_STRINGS,
  ROLE,
  type BulkUsersOutput,
  type User,
  type UsersListOutput,
  type bulkUsersInput,
  type profileUpdateInput,
  type userCreateInput,
  type userUpdateInput,
  type usersListQuery,
} from '@lm/shared';
import type { z } from 'zod';
import { brokerages, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { limitPlaceholder, personNameOrder, placeholderOf } from '../../db/sql.ts';
import { peopleMatching, searchFilter, searchPlaceholders, searchValues, type SearchFilter } from '../../db/search.ts';
import { preparedSelect, preparedShapes } from '../../db/prepared.ts';
import { afterKey, cappedCount, keyColumns, keyValues, nullsFirst, orderOf, perSort, readPage, type ListOrder } from '../../db/list.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { audit, type Actor } from '../../core/audit.ts';
import { badRequest, conflict, forbidden, notFound } from '../../base/errors.ts';
import { hashPassword } from '../../core/passwords.ts';
import { isAdmin, isBroker, type AuthUser } from '../../core/identity.ts';
import { scopeKind, scopeValues, visibleUsersCondition, visibleUsersPlaceholders, type ScopeKind } from '../../core/scope.ts';
import { assertPasswordAcceptable } from '../auth/auth.service.ts';
import { revokeUserSessions } from '../../core/sessions.ts';
import { emailIs, getPublicUser, publicUserColumns } from './users.queries.ts';
import { runInBackground } from '../../core/background.ts';
import { issueAndSendLink, LINK_VALIDITY_MS } from '../auth/password-reset.service.ts';
import { whereItWent } from '../notification-management/notification-management.service.ts';
import { assertEmailChangeAllowed, requestEmailChange } from './email-change.service.ts';
import { emitEvent } from '../webhooks/events.ts';
import { assertIfMatch } from '../../http/etag.ts';
import { recordDeletion } from '../deletions/deletions.service.ts';

type UserRow = typeof users.$inferSelect;

const SORT_COLUMNS = {
  name: personNameOrder(users),
  email: [users.email],
  role: [users.role_id],
  // Nullable columns sort first ascending on both engines, and never meet a cursor as NULL (db/list.ts nullsFirst).
  brokerage: [nullsFirst(brokerages.name, 'text')],
  status: [users.is_active],
  last_login: [nullsFirst(users.last_login, 'time')],
  created_at: [users.created_at],
} as const;

/**
 * The list's prepared reads (db/prepared.ts "preparedShapes"): the SQL depends on the caller's kind of scope,
 * which filters are set and the sort; the values go in as placeholders.
 */
type UserFilter = 'role' | 'brokerage_id' | 'is_active' | SearchFilter | 'updated_since';
interface ListShape {
  scope: ScopeKind;
  filters: UserFilter[];
  sort: keyof typeof SORT_COLUMNS;
  order: 'asc' | 'desc';
  /** Asked by cursor: the rows after a key (db/list.ts afterKey), no OFFSET. */
  cursor: boolean;
}

function whereOf(shape: Pick<ListShape, 'scope' | 'filters'>): SQL | undefined {
  const p = sql.placeholder;
  const conditions: Array<SQL | undefined> = [isNull(users.deleted_at), visibleUsersPlaceholders(shape.scope, users.user_id)];
  const has = (f: UserFilter) => shape.filters.includes(f);
  if (has('role')) conditions.push(eq(users.role_id, p('role')));
  if (has('brokerage_id')) conditions.push(eq(users.brokerage_id, p('brokerage_id')));
  if (has('is_active')) conditions.push(eq(users.is_active, placeholderOf(users.is_active, 'is_active')));
  if (has('updated_since')) conditions.push(gt(users.updated_at, p('updated_since')));
  const own = { name: sql`(${users.first_name} || ' ' || ${users.last_name})`, email: users.email, phone: users.phone_number };
  if (has('search')) conditions.push(peopleMatching(users.user_id, searchPlaceholders('search'), 'contact', own));
  if (has('search_scan')) conditions.push(peopleMatching(users.user_id, searchPlaceholders('search_scan'), 'contact', own));
  return and(...conditions);
}

// No filter reads the brokerage, so the count needs no join (3.4 ms to 0.7 ms on 20,000 users); it is kept until
// the database changes (db/prepared.ts keptUntilChange), so paging through the list does not recount.
const countRead = preparedShapes<Pick<ListShape, 'scope' | 'filters'>, Record<string, unknown>, Array<{ n: number }>>(
  'users_count',
  (d, shape) => d.select({ n: count() }).from(users).where(whereOf(shape)),
  { keep: true },
);

const pageOrder = (shape: Pick<ListShape, 'sort' | 'order'>): ListOrder => ({
  sort: SORT_COLUMNS[shape.sort],
  order: shape.order,
  id: users.user_id,
});

// Each sort selects its own key columns (db/list.ts keyColumns), so each sort is its own prepared read.
const pageRead = perSort((sort: ListShape['sort']) => {
  const columns = { ...publicUserColumns, ...keyColumns(pageOrder({ sort, order: 'asc' })) };
  return preparedSelect<typeof columns, ListShape, Record<string, unknown>, User[]>(`users_page_${sort}`, columns, (select, shape) => {
    const order = pageOrder(shape);
    return select
      .from(users)
      .leftJoin(brokerages, eq(brokerages.brokerage_id, users.brokerage_id))
      .where(shape.cursor ? and(whereOf(shape), afterKey(order, 'placeholders')) : whereOf(shape))
      .orderBy(...orderOf(order.sort, order.order, order.id))
      .limit(limitPlaceholder())
      .offset(sql.placeholder('offset'));
  });
});

// The list's total: at most COUNT_CAP + 1 rows read (db/list.ts cappedCount), kept until the database changes.
const pageCountRead = preparedShapes<Pick<ListShape, 'scope' | 'filters'>, Record<string, unknown>, Array<{ n: number }>>(
  'users_page_count',
  (d, shape) =>
    cappedCount(
      d,
      d
        .select({ one: sql<number>`1`.as('one') })
        .from(users)
        .where(whereOf(shape)),
    ),
  { keep: true },
);

type UserFilters = Pick<z.output<typeof usersListQuery>, 'role' | 'brokerage_id' | 'is_active' | 'search' | 'updated_since'>;

/** The filters set and their values, the scope's last (spreads last: see listValues in licenses.service.ts). */
function listFilters(ctx: Pick<AuthedContext, 'user'>, input: UserFilters) {
  const filters: UserFilter[] = [];
  if (input.role !== undefined) filters.push('role');
  if (input.brokerage_id !== undefined) filters.push('brokerage_id');
  if (input.is_active !== undefined) filters.push('is_active');
  if (input.search) filters.push(searchFilter(input.search));
  if (input.updated_since) filters.push('updated_since');
  const values = {
    role: input.role,
    brokerage_id: input.brokerage_id,
    is_active: input.is_active,
    updated_since: input.updated_since,
    ...searchValues(input.search),
    ...scopeValues(ctx.user),
  };
  return { filters, values };
}

/** How many users in the caller's scope match the list's filters (the list's total; the dashboard's counts). */
export async function countUsers(ctx: Pick<AuthedContext, 'db' | 'user'>, input: UserFilters = {}): Promise<number> {
  const { filters, values } = listFilters(ctx, input);
  return Number((await countRead(ctx.db, { scope: scopeKind(ctx.user), filters }, values))[0]?.n ?? 0);
}

/** GET /users: the caller's scope, filters, search, sort and one page. */
export async function listUsers(ctx: AuthedContext, input: z.output<typeof usersListQuery>): Promise<UsersListOutput> {
  const { filters, values } = listFilters(ctx, input);
  const shape: ListShape = {
    scope: scopeKind(ctx.user),
    filters,
    sort: input.sort ?? 'name',
    order: input.order === 'desc' ? 'desc' : 'asc',
    cursor: Boolean(input.cursor),
  };
  const order = pageOrder(shape);
  // The count depends on the scope and filters only: one prepared count and one kept answer whatever the sort.
  const { rows, pagination } = await readPage(input, {
    order,
    count: async () => (await pageCountRead(ctx.db, { scope: shape.scope, filters: shape.filters }, values))[0]?.n,
    rows: ({ limit, offset, after }) =>
      pageRead(shape.sort)(ctx.db, shape, after ? { limit, offset, ...keyValues(order, after), ...values } : { limit, offset, ...values }),
  });
  return { users: rows, pagination };
}

/** A user the caller may see (not deleted), or 404. */
async function visibleUser(ctx: AuthedContext, db: DbOrTx, id: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.user_id, id), isNull(users.deleted_at), visibleUsersCondition(ctx.user, users.user_id)));
  if (!row) throw notFound('User');
  return row;
}

/** The changes of a user, each with the policy's rule (shared/src/policy.ts): a Broker only the Agents of its own brokerage. */
type UserChange = 'users.update' | 'users.delete' | 'users.bulk' | 'users.sendResetLink';

/** A user the caller may see and make this change to (else 404, as if it did not exist). */
async function manageableUser(ctx: AuthedContext, db: DbOrTx, id: number, change: UserChange): Promise<UserRow> {
  const row = await visibleUser(ctx, db, id);
  if (!can(ctx.user, change, row)) throw notFound('User');
  return row;
}

export async function getUser(ctx: AuthedContext, id: number): Promise<User> {
  await visibleUser(ctx, ctx.db, id);
  return (await getPublicUser(ctx.db, id))!;
}

/** 409 when another user (deleted ones included: their history keeps the address) has this email. */
async function assertEmailFree(db: DbOrTx, email: string, exceptUserId?: number): Promise<void> {
  const conditions = [emailIs(email)];
  if (exceptUserId !== undefined) conditions.push(ne(users.user_id, exceptUserId));
  const [other] = await db
    .select({ deleted_at: users.deleted_at })
    .from(users)
    .where(and(...conditions))
    .limit(1);
  if (other) {
    throw conflict(
      other.deleted_at ? 'This email belongs to a deleted user and cannot be reused' : 'A user with this email already exists',
    );
  }
}

async function assertBrokerageExists(db: DbOrTx, brokerageId: number | null | undefined): Promise<void> {
  if (brokerageId === null || brokerageId === undefined) return;
  const [row] = await db.select({ id: brokerages.brokerage_id }).from(brokerages).where(eq(brokerages.brokerage_id, brokerageId));
  if (!row) throw notFound('Brokerage');
}

/**
 * 409 when a change would leave no active Admin. Self-protection alone cannot guarantee it: two Admins
 * may demote, deactivate or delete each other at the same moment. Call inside the transaction, after
 * the change, when it took an Admin away.
 */
async function assertAnAdminRemains(tx: Tx): Promise<void> {
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role_id, ROLE.Admin), eq(users.is_active, true), isNull(users.deleted_at)));
  if ((row?.n ?? 0) === 0) throw conflict('At least one active Admin must remain');
}

/** An Admin before the change that is no longer an active Admin after it. */
const lostAdmin = (before: UserRow, after: UserRow) =>
  isAdmin(before) && before.is_active && !before.deleted_at && (!isAdmin(after) || !after.is_active || !!after.deleted_at);

/**
 * The role and brokerage the caller may give a user (403: a right it does not have; the policy's users.grantRole
 * and users.assignBrokerage: a Broker only Agents, only its own brokerage).
 */
function assertGrants(actor: AuthUser, roleId: number | undefined, brokerageId: number | null | undefined): void {
  if (roleId !== undefined && !can(actor, 'users.grantRole', { role_id: roleId }))
    throw forbidden('Brokers may only create and edit Agents');
  if (brokerageId !== undefined && !can(actor, 'users.assignBrokerage', { brokerage_id: brokerageId })) {
    throw forbidden('Brokers may only manage users of their own brokerage');
  }
}

/** What an audit entry shows of a user: the public fields, never a password or hash. */
function auditView(row: UserRow) {
  const { password_hash: _hash, failed_login_attempts: _f, locked_until: _l, login_count: _c, ...rest } = row;
  return rest;
}

export async function createUser(ctx: AuthedContext, input: z.output<typeof userCreateInput>): Promise<User> {
  assertGrants(ctx.user, input.role_id, input.brokerage_id);
  // A Broker's new users join its own brokerage; the policy's users.create refuses a Broker without one.
  const brokerageId = isBroker(ctx.user) ? ctx.user.brokerage_id : (input.brokerage_id ?? null);
  if (!can(ctx.user, 'users.create', { role_id: input.role_id, brokerage_id: brokerageId })) {
    throw forbidden('You are not assigned to a brokerage');
  }
  // A first look, so that a taken e-mail or a bad password is refused before any hashing.
  await assertBrokerageExists(ctx.db, brokerageId);
  await assertEmailFree(ctx.db, input.email);
  await assertPasswordAcceptable(ctx, input.password);
  const hash = await hashPassword(input.password);
  const id = await ctx.db.transaction(async (tx) => {
    // Decided inside the transaction: another request may have taken the email while this one hashed.
    await assertBrokerageExists(tx, brokerageId);
    await assertEmailFree(tx, input.email);
    const [row] = await tx
      .insert(users)
      .values({
        email: input.email,
        password_hash: hash,
        first_name: input.first_name,
        last_name: input.last_name,
        role_id: input.role_id,
        brokerage_id: brokerageId,
        phone_number: input.phone_number ?? null,
        address: input.address ?? null,
        city: input.city ?? null,
        state: input.state ?? null,
        zip_code: input.zip_code ?? null,
        is_active: input.is_active ?? true,
      })
      .returning();
    await audit(tx, ctx.actor, { action: 'create', table: 'users', id: row!.user_id, new: auditView(row!) });
    await emitEvent(tx, 'user.created', () => getPublicUser(tx, row!.user_id));
    return row!.user_id;
  });
  if (input.is_active ?? true) sendWelcome(ctx, id);
  return (await getPublicUser(ctx.db, id))!;
}

/** user_registered: the welcome e-mail with a link to choose a password (never the password), after the answer. */
export function sendWelcome(ctx: AuthedContext, userId: number): void {
  const { db, config, actor } = ctx;
  runInBackground('welcome e-mail', () =>
    issueAndSendLink(db, config, {
      userId,
      purpose: 'welcome',
      validForMs: LINK_VALIDITY_MS.welcome,
      actor,
      auditAction: 'password_link_issued',
    }),
  );
}

/**
 * POST /users/{id}/send-reset-link: e-mails the user a single-use link (24 hours) to choose a new
 * password; the current password keeps working until the link is used. Admin: anyone; Broker: the
 * Agents of its brokerage (others 404). Audited as password_link_issued.
 */
export async function sendResetLink(ctx: AuthedContext, id: number): Promise<{ success: boolean; message: string }> {
  const target = await manageableUser(ctx, ctx.db, id, 'users.sendResetLink');
  if (!target.is_active) throw badRequest('This account is inactive. Activate it before sending a password link.');
  const outcome = await issueAndSendLink(ctx.db, ctx.config, {
    userId: target.user_id,
    purpose: 'reset',
    validForMs: LINK_VALIDITY_MS.admin,
    actor: ctx.actor,
    auditAction: 'password_link_issued',
    auditNew: { sent_by_admin: true },
  });
  if (outcome.status === 'skipped') return { success: false, message: 'The password reset link was not sent' };
  return { success: outcome.status === 'sent', message: whereItWent(ctx, outcome.delivery, 'Password reset link') };
}

/** Only the fields that change, old and new, for the audit entry. */
function diff(before: UserRow, after: UserRow) {
  const oldValues: Record<string, unknown> = {};
  const newValues: Record<string, unknown> = {};
  const a = auditView(before) as Record<string, unknown>;
  const b = auditView(after) as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (key === 'updated_at' || a[key] === b[key]) continue;
    oldValues[key] = a[key];
    newValues[key] = b[key];
  }
  return { oldValues, newValues };
}

const UPDATABLE = [
  'email',
  'first_name',
  'last_name',
  'role_id',
  'brokerage_id',
  'is_active',
  'phone_number',
  'address',
  'city',
  'state',
  'zip_code',
] as const;

export async function updateUser(ctx: AuthedContext, input: z.output<typeof userUpdateInput>): Promise<User> {
  assertGrants(ctx.user, input.role_id, input.brokerage_id);
  const self = input.id === ctx.user.user_id;
  let hash: string | undefined;
  if (input.password) {
    // Out-of-scope ids and bad passwords are refused before any hashing.
    await manageableUser(ctx, ctx.db, input.id, 'users.update');
    await assertPasswordAcceptable(ctx, input.password);
    hash = await hashPassword(input.password);
  }

  await ctx.db.transaction(async (tx) => {
    const target = await manageableUser(ctx, tx, input.id, 'users.update');
    // If-Match (REST): the user as GET /users/{id} answers it, read in this transaction (http/etag.ts).
    await assertIfMatch(ctx, () => getUser(ctx, input.id));
    if (self && input.is_active === false) throw badRequest('You cannot deactivate your own account');
    if (self && input.role_id !== undefined && input.role_id !== target.role_id) throw badRequest('You cannot change your own role');
    if (input.email !== undefined) await assertEmailFree(tx, input.email, target.user_id);
    await assertBrokerageExists(tx, input.brokerage_id);
    const patch: Partial<typeof users.$inferInsert> = {};
    for (const key of UPDATABLE) {
      if (input[key] !== undefined) (patch as Record<string, unknown>)[key] = input[key];
    }
    if (hash) {
      patch.password_hash = hash;
      patch.password_changed_at = new Date().toISOString();
    }
    // An empty edit ({}) changes nothing (an UPDATE with no columns is an SQL error).
    const after =
      Object.keys(patch).length > 0 ? (await tx.update(users).set(patch).where(eq(users.user_id, target.user_id)).returning())[0]! : target;
    if (lostAdmin(target, after)) await assertAnAdminRemains(tx);
    const deactivated = target.is_active && !after.is_active;
    // A deactivated user is signed out everywhere; a reset password signs out the user's other sessions.
    let revoked = 0;
    if (deactivated || hash) revoked = await revokeUserSessions(tx, target.user_id, self ? ctx.session.session_id : undefined);
    const { oldValues, newValues } = diff(target, after);
    await audit(tx, ctx.actor, {
      action: 'update',
      table: 'users',
      id: target.user_id,
      old: oldValues,
      new: { ...newValues, ...(hash ? { credentials_changed: true } : {}), ...(revoked ? { sessions_revoked: revoked } : {}) },
    });
  });
  return (await getPublicUser(ctx.db, input.id))!;
}

export async function deleteUser(ctx: AuthedContext, id: number): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const target = await manageableUser(ctx, tx, id, 'users.delete');
    if (target.user_id === ctx.user.user_id) throw badRequest('You cannot delete your own account');
    const [after] = await tx
      .update(users)
      .set({ deleted_at: new Date().toISOString(), is_active: false })
      .where(eq(users.user_id, target.user_id))
      .returning();
    if (lostAdmin(target, after!)) await assertAnAdminRemains(tx);
    const revoked = await revokeUserSessions(tx, target.user_id);
    await recordDeletion(tx, 'users', target.user_id, target.user_id);
    await audit(tx, ctx.actor, {
      action: 'delete',
      table: 'users',
      id: target.user_id,
      old: auditView(target),
      new: { sessions_revoked: revoked },
    });
  });
  return { success: true };
}

/**
 * POST /users/bulk: one transaction, one audit entry per affected user. Every id must be a user the
 * caller may change (404 otherwise, and nothing changes).
 */
export async function bulkUsers(ctx: AuthedContext, input: z.output<typeof bulkUsersInput>): Promise<BulkUsersOutput> {
  const ids = [...new Set(input.user_ids)];
  const { action } = input;
  const data = input.data ?? {};
  const affected = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(users)
      .where(and(inArray(users.user_id, ids), isNull(users.deleted_at), visibleUsersCondition(ctx.user, users.user_id)));
    if (rows.length !== ids.length || rows.some((r) => !can(ctx.user, 'users.bulk', r))) throw notFound('User');
    const includesSelf = ids.includes(ctx.user.user_id);
    const patch: Partial<typeof users.$inferInsert> = {};
    switch (action) {
      case 'activate':
        patch.is_active = true;
        break;
      case 'deactivate':
        if (includesSelf) throw badRequest('You cannot deactivate your own account');
        patch.is_active = false;
        break;
      case 'delete':
        if (includesSelf) throw badRequest('You cannot delete your own account');
        patch.is_active = false;
        patch.deleted_at = new Date().toISOString();
        break;
      case 'change_role':
        if (data.role_id === undefined) throw badRequest('Choose the new role (data.role_id)');
        assertGrants(ctx.user, data.role_id, undefined);
        if (includesSelf && data.role_id !== ctx.user.role_id) throw badRequest('You cannot change your own role');
        patch.role_id = data.role_id;
        break;
      case 'change_brokerage':
        if (data.brokerage_id === undefined) throw badRequest('Choose the new brokerage (data.brokerage_id, or null for none)');
        assertGrants(ctx.user, undefined, data.brokerage_id);
        patch.brokerage_id = data.brokerage_id;
        break;
    }
    if (action === 'change_brokerage') await assertBrokerageExists(tx, data.brokerage_id);
    let adminLost = false;
    for (const before of rows) {
      const [after] = await tx.update(users).set(patch).where(eq(users.user_id, before.user_id)).returning();
      adminLost ||= lostAdmin(before, after!);
      let revoked = 0;
      if (action === 'deactivate' || action === 'delete') revoked = await revokeUserSessions(tx, before.user_id);
      const { oldValues, newValues } = diff(before, after!);
      await audit(tx, ctx.actor, {
        action: action === 'delete' ? 'bulk_delete' : 'bulk_update',
        table: 'users',
        id: before.user_id,
        old: oldValues,
        new: { bulk_action: action, ...newValues, ...(revoked ? { sessions_revoked: revoked } : {}) },
      });
    }
    if (adminLost) await assertAnAdminRemains(tx);
    return rows.length;
  });
  return { success: true, affected };
}

/**
 * PUT /users/me/profile: the signed-in user's own name, phone and address, saved at once. A new sign-in e-mail needs
 * the current password and is only requested here: it takes effect from the link sent to the new address, and the
 * answer (the user, e-mail unchanged) is the same for a free and a taken address (email-change.service.ts).
 */
export async function updateProfile(ctx: AuthedContext, input: z.output<typeof profileUpdateInput>): Promise<User> {
  const [current] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.user_id, ctx.user.user_id));
  if (!current) throw notFound('User');
  const wantsEmail = await assertEmailChangeAllowed(ctx, current.email, input.email, input.currentPassword);
  const send = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.user_id, ctx.user.user_id));
    if (!before) throw notFound('User');
    const emailChanges = input.email !== before.email.toLowerCase();
    // The e-mail changed (an undo or confirmation) since the password was checked against the old one: ask again.
    if (emailChanges && !wantsEmail) throw badRequest(PROFILE_STRINGS.emailNeedsPassword);
    const patch: Partial<typeof users.$inferInsert> = {
      first_name: input.first_name,
      last_name: input.last_name,
    };
    for (const key of ['phone_number', 'address', 'city', 'state', 'zip_code'] as const) {
      if (input[key] !== undefined) patch[key] = input[key];
    }
    const [after] = await tx.update(users).set(patch).where(eq(users.user_id, before.user_id)).returning();
    const { oldValues, newValues } = diff(before, after!);
    await audit(tx, ctx.actor, { action: 'update_profile', table: 'users', id: before.user_id, old: oldValues, new: newValues });
    return emailChanges ? requestEmailChange(tx, ctx, before.email, input.email) : null;
  });
  if (send) runInBackground('e-mail change confirmation', send);
  return (await getPublicUser(ctx.db, ctx.user.user_id))!;
}

/** The users (not deleted) of one brokerage, by name: for the brokerage's "Users in" list. */
export async function usersOfBrokerage(db: DbOrTx, brokerageId: number): Promise<User[]> {
  return db
    .select(publicUserColumns)
    .from(users)
    .leftJoin(brokerages, eq(brokerages.brokerage_id, users.brokerage_id))
    .where(and(eq(users.brokerage_id, brokerageId), isNull(users.deleted_at)))
    .orderBy(...personNameOrder(users), asc(users.user_id));
}

/**
 * Takes every user (deleted ones too) out of a brokerage that is being deleted, auditing each.
 * The foreign key would set them to null as well; doing it here puts each change in the audit log.
 */
export async function unassignBrokerageUsers(tx: Tx, actor: Actor, brokerageId: number, brokerageName: string): Promise<number[]> {
  const members = await tx
    .update(users)
    .set({ brokerage_id: null })
    .where(eq(users.brokerage_id, brokerageId))
    .returning({ user_id: users.user_id });
  for (const m of members) {
    await audit(tx, actor, {
      action: 'update',
      table: 'users',
      id: m.user_id,
      old: { brokerage_id: brokerageId },
      new: { brokerage_id: null, reason: `brokerage "${brokerageName}" deleted` },
    });
  }
  return members.map((m) => m.user_id);
}
