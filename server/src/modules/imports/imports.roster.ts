/**
 * Roster imports (docs/decisions.md "Imports"): people matched by e-mail (ignoring case), licenses by number +
 * state. Each row is checked with the single-object schemas (userCreateInput's fields, createLicenseInput); new
 * people and licenses are written in bulk, as users.service and licenses.service create them (a new license's CE
 * hours from the state rule through licenseDefaults); changes to existing ones go through updateUser and
 * updateLicense themselves. A Broker's rows land in its own brokerage; an Admin's create a brokerage that is new.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  can,
  createLicenseInput,
  IMPORT_DEFAULT_ROLE,
  LICENSE_MESSAGES,
  LICENSE_STATUSES,
  LICENSE_TYPES,
  ROLE,
  ROLE_NAMES,
  roundHours,
  userCreateInput,
  type DateFormat,
  type ImportMapping,
  type ImportRowWritten,
  type LicenseDefaults,
} from '@lm/shared';
import { brokerages, licenses, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { AppError } from '../../base/errors.ts';
import { isLicenseHolderRole, licenseDefaults, updateLicense } from '../licenses/licenses.service.ts';
import { updateUser } from '../users/users.service.ts';
import { chunks, matchOption, RowValues, type RowResult } from './imports.rows.ts';

/** The person fields of a new user, checked as POST /users checks them (no password: the welcome link sets one). */
const personSchema = userCreateInput.pick({ email: true, first_name: true, last_name: true, phone_number: true, role_id: true });
const LICENSE_FIELD_IDS = ['license_number', 'state', 'license_type', 'issue_date', 'expiration_date', 'status', 'ce_hours_required'];

type UserRow = Pick<
  typeof users.$inferSelect,
  'user_id' | 'email' | 'first_name' | 'last_name' | 'phone_number' | 'role_id' | 'brokerage_id' | 'deleted_at' | 'updated_at'
>;
type LicenseRow = typeof licenses.$inferSelect;

interface PersonPlan {
  email: string;
  first_name: string;
  last_name: string;
  phone_number: string | null;
  role_id: number;
  /** An existing brokerage, a new one by name (Admin), or none. */
  brokerage: { id: number } | { name: string } | null;
}
interface LicensePlan {
  license_number: string;
  state: string;
  license_type: (typeof LICENSE_TYPES)[number];
  issue_date: string;
  expiration_date: string;
  status: (typeof LICENSE_STATUSES)[number];
  ce_hours_required?: number;
}

export interface RosterPlan {
  row: number;
  /** The first row of the file that named this e-mail creates the person; later rows add licenses. */
  newPerson: PersonPlan | null;
  personKey: string;
  existingUser: UserRow | null;
  userChanges: Record<string, unknown> | null;
  license: LicensePlan | null;
  existingLicense: LicenseRow | null;
  licenseChanges: Record<string, unknown> | null;
}

interface Lookups {
  users: Map<string, UserRow>;
  licenses: Map<string, LicenseRow>;
  brokerages: Map<string, { brokerage_id: number; name: string }>;
}

const licenseKey = (state: string, number: string) => `${state.toUpperCase()}|${number.toUpperCase()}`;

/** Existing people, licenses and brokerages of the rows, read in bulk (chunks of 500), never one query per row. */
async function lookups(db: DbOrTx, rows: RowValues[]): Promise<Lookups> {
  const emails = [...new Set(rows.map((r) => r.get('email').toLowerCase()).filter(Boolean))];
  const numbers = [...new Set(rows.map((r) => r.get('license_number').toUpperCase()).filter(Boolean))];
  const out: Lookups = { users: new Map(), licenses: new Map(), brokerages: new Map() };
  for (const part of chunks(emails)) {
    const found = await db
      .select({
        user_id: users.user_id,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
        phone_number: users.phone_number,
        role_id: users.role_id,
        brokerage_id: users.brokerage_id,
        deleted_at: users.deleted_at,
        updated_at: users.updated_at,
      })
      .from(users)
      .where(inArray(sql`lower(${users.email})`, part));
    for (const u of found) out.users.set(u.email.toLowerCase(), u);
  }
  for (const part of chunks(numbers)) {
    const found = await db
      .select()
      .from(licenses)
      .where(inArray(sql`upper(${licenses.license_number})`, part));
    for (const l of found) out.licenses.set(licenseKey(l.state, l.license_number), l);
  }
  for (const b of await db.select({ brokerage_id: brokerages.brokerage_id, name: brokerages.name }).from(brokerages)) {
    if (!out.brokerages.has(b.name.toLowerCase())) out.brokerages.set(b.name.toLowerCase(), b);
  }
  return out;
}

function roleOf(v: RowValues): number | string {
  const text = v.get('role');
  if (!text) return ROLE[IMPORT_DEFAULT_ROLE];
  const byName = ROLE_NAMES.find((n) => n.toLowerCase() === text.toLowerCase());
  if (byName) return ROLE[byName];
  return /^[1-4]$/.test(text) ? Number(text) : text;
}

/** Fields that differ (a blank cell changes nothing). */
function changed(current: Record<string, unknown>, wanted: Record<string, unknown>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(wanted)) if (v !== undefined && v !== current[k]) out[k] = v;
  return Object.keys(out).length ? out : null;
}

/**
 * Every row's action and errors, and the plan of what a commit writes. Reads only: run it again inside the
 * commit's transaction (the preview may be stale).
 */
export async function evaluateRoster(
  ctx: AuthedContext,
  db: DbOrTx,
  headers: string[],
  mapping: ImportMapping,
  data: Array<{ row: number; cells: string[] }>,
  dateFormat: DateFormat,
  scopeBrokerageId: number | null,
): Promise<{ results: RowResult[]; plans: RosterPlan[] }> {
  const rows = data.map((d) => RowValues.of('roster', headers, mapping, d.cells, d.row));
  const found = await lookups(db, rows);
  const results: RowResult[] = [];
  const plans: RosterPlan[] = [];
  const personRows = new Map<string, number>();
  const licenseRows = new Map<string, number>();
  const ownBrokerage = scopeBrokerageId;
  for (const v of rows) {
    v.requireFields();
    // The person, as POST /users checks it.
    const person = personSchema.safeParse({
      email: v.get('email'),
      first_name: v.get('first_name'),
      last_name: v.get('last_name'),
      phone_number: v.get('phone_number') || undefined,
      role_id: roleOf(v),
    });
    if (!person.success) v.issues(person.error, (p) => (p === 'role_id' ? 'role' : p));
    const roleId = person.success ? person.data.role_id : ROLE[IMPORT_DEFAULT_ROLE];
    if (person.success && !can(ctx.user, 'users.grantRole', { role_id: roleId })) v.fail('role', 'Brokers may only import Agents');
    // The brokerage: a Broker's own only; an Admin's by name, created when new.
    let brokerage: PersonPlan['brokerage'] = null;
    const brokerageName = v.get('brokerage');
    if (brokerageName) {
      const known = found.brokerages.get(brokerageName.toLowerCase());
      if (!can(ctx.user, 'imports.roster', { brokerage_id: known?.brokerage_id ?? null }))
        v.fail('brokerage', `"${brokerageName}" is not your brokerage: you can import people into your own brokerage only`);
      brokerage = known ? { id: known.brokerage_id } : { name: brokerageName.replace(/\s+/g, ' ').slice(0, 255) };
    } else if (ownBrokerage !== null) brokerage = { id: ownBrokerage };
    // The license, as POST /licenses checks it.
    let license: LicensePlan | null = null;
    if (LICENSE_FIELD_IDS.some((id) => v.has(id))) {
      const issue = v.date('issue_date', dateFormat);
      const expiration = v.date('expiration_date', dateFormat);
      const parsed = createLicenseInput.safeParse({
        user_id: 1,
        license_number: v.get('license_number'),
        state: v.get('state'),
        license_type: v.has('license_type') ? matchOption(v.get('license_type'), LICENSE_TYPES) : undefined,
        issue_date: issue ?? '',
        expiration_date: expiration ?? '',
        status: v.has('status') ? matchOption(v.get('status'), LICENSE_STATUSES) : undefined,
        ce_hours_required: v.number('ce_hours_required'),
      });
      if (!parsed.success) {
        // A date already refused is not reported twice.
        const error = {
          ...parsed.error,
          issues: parsed.error.issues.filter(
            (i) => !(i.path[0] === 'issue_date' && issue === null) && !(i.path[0] === 'expiration_date' && expiration === null),
          ),
        };
        v.issues(error as typeof parsed.error, (p) => p);
      } else {
        const { user_id: _u, ce_hours_completed: _c, ...l } = parsed.data;
        license = l;
      }
    }
    const email = person.success ? person.data.email.toLowerCase() : v.get('email').toLowerCase();
    const existingUser = found.users.get(email) ?? null;
    // Licenses are held by Agents and Brokers: the person's role as stored, or as the row gives it for a new one.
    if (license && !isLicenseHolderRole(existingUser ?? { role_id: roleId }))
      v.fail(existingUser ? 'email' : 'role', LICENSE_MESSAGES.holderRole);
    const plan: RosterPlan = {
      row: v.row,
      newPerson: null,
      personKey: email,
      existingUser,
      userChanges: null,
      license,
      existingLicense: null,
      licenseChanges: null,
    };
    if (person.success) {
      if (existingUser?.deleted_at) v.fail('email', `${person.data.email} belongs to a deleted user and cannot be reused`);
      else if (existingUser) {
        if (!can(ctx.user, 'users.update', existingUser)) v.fail('email', `${person.data.email} is not one of the people you manage`);
        else if (!personRows.has(email)) {
          plan.userChanges = changed(existingUser, {
            first_name: person.data.first_name,
            last_name: person.data.last_name,
            phone_number: person.data.phone_number,
            brokerage_id: brokerage && 'id' in brokerage ? brokerage.id : undefined,
          });
          if (brokerage && 'name' in brokerage) v.fail('brokerage', 'A new brokerage can be given to new people only');
        }
      } else if (!personRows.has(email)) {
        plan.newPerson = {
          email: person.data.email,
          first_name: person.data.first_name,
          last_name: person.data.last_name,
          phone_number: person.data.phone_number ?? null,
          role_id: roleId,
          brokerage,
        };
      }
    }
    if (license) {
      const key = licenseKey(license.state, license.license_number);
      const other = licenseRows.get(key);
      const existing = found.licenses.get(key) ?? null;
      if (other !== undefined) v.fail('license_number', `License ${license.license_number} in ${license.state} is also on row ${other}`);
      else if (existing && (!existingUser || existing.user_id !== existingUser.user_id)) {
        v.fail('license_number', LICENSE_MESSAGES.duplicate(license.license_number, license.state) + ' for another person');
      } else if (existing) {
        plan.existingLicense = existing;
        plan.licenseChanges = changed(existing, {
          license_type: v.has('license_type') ? license.license_type : undefined,
          issue_date: license.issue_date,
          expiration_date: license.expiration_date,
          status: v.has('status') ? license.status : undefined,
          ce_hours_required: license.ce_hours_required,
        });
      }
      licenseRows.set(key, v.row);
    }
    if (person.success && !personRows.has(email)) personRows.set(email, v.row);
    const errors = v.errors;
    const action = errors.length
      ? 'error'
      : plan.newPerson || (license && !plan.existingLicense)
        ? 'create'
        : plan.userChanges || plan.licenseChanges
          ? 'update'
          : 'unchanged';
    const name = `${v.get('first_name')} ${v.get('last_name')}`.trim();
    const summary = [name || v.get('email'), license ? `${license.state} ${license.license_number}` : ''].filter(Boolean).join(' · ');
    results.push({ row: v.row, action, summary: summary || null, errors });
    if (action !== 'error') plans.push(plan);
  }
  return { results, plans };
}

export interface RosterWriteOutcome {
  written: Map<number, ImportRowWritten>;
  failed: Map<number, string>;
  createdBrokerages: number[];
  createdUserIds: number[];
}

/**
 * Writes the plans inside the commit's transaction: new brokerages, new people and new licenses in bulk; changes
 * through updateUser and updateLicense (each a savepoint: a refusal there makes that row an error, the rest go on).
 */
export async function writeRoster(ctx: AuthedContext, tx: Tx, plans: RosterPlan[], unusableHash: string): Promise<RosterWriteOutcome> {
  const out: RosterWriteOutcome = { written: new Map(), failed: new Map(), createdBrokerages: [], createdUserIds: [] };
  const entry = (row: number) => {
    let w = out.written.get(row);
    if (!w) out.written.set(row, (w = { created: [], updated: [] }));
    return w;
  };
  // Brokerages named by new people and not there yet (an Admin's import).
  const newBrokerages = new Map<string, number>();
  for (const p of plans) {
    const b = p.newPerson?.brokerage;
    if (b && 'name' in b && !newBrokerages.has(b.name.toLowerCase())) {
      const [row] = await tx.insert(brokerages).values({ name: b.name }).returning({ id: brokerages.brokerage_id });
      newBrokerages.set(b.name.toLowerCase(), row!.id);
      out.createdBrokerages.push(row!.id);
    }
  }
  // New people, in bulk.
  const userIds = new Map<string, number>();
  const newPeople = plans.filter((p) => p.newPerson);
  for (const part of chunks(newPeople, 200)) {
    const created = await tx
      .insert(users)
      .values(
        part.map(({ newPerson: p }) => ({
          email: p!.email,
          password_hash: unusableHash,
          first_name: p!.first_name,
          last_name: p!.last_name,
          role_id: p!.role_id,
          brokerage_id:
            p!.brokerage === null ? null : 'id' in p!.brokerage ? p!.brokerage.id : newBrokerages.get(p!.brokerage.name.toLowerCase())!,
          phone_number: p!.phone_number,
          is_active: true,
        })),
      )
      .returning({ user_id: users.user_id, email: users.email, updated_at: users.updated_at });
    created.forEach((u, i) => {
      userIds.set(u.email.toLowerCase(), u.user_id);
      out.createdUserIds.push(u.user_id);
      entry(part[i]!.row).created.push({ table: 'users', id: u.user_id, updated_at: u.updated_at });
    });
  }
  // Changes to existing people, through the users service.
  for (const p of plans) {
    if (!p.userChanges || !p.existingUser) continue;
    try {
      await updateUser(ctx, { id: p.existingUser.user_id, ...p.userChanges } as Parameters<typeof updateUser>[1]);
      const [after] = await tx.select({ updated_at: users.updated_at }).from(users).where(eq(users.user_id, p.existingUser.user_id));
      const before = Object.fromEntries(Object.keys(p.userChanges).map((k) => [k, p.existingUser![k as keyof UserRow]]));
      entry(p.row).updated.push({ table: 'users', id: p.existingUser.user_id, before, updated_at: after!.updated_at });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      out.failed.set(p.row, err.message);
    }
  }
  // New licenses, in bulk, starting as licenses.service's createLicense starts them.
  const defaults = new Map<string, LicenseDefaults>();
  const newLicenses = plans.filter((p) => p.license && !p.existingLicense && !out.failed.has(p.row));
  for (const p of newLicenses) {
    const key = `${p.license!.state}|${p.license!.license_type}`;
    if (!defaults.has(key))
      defaults.set(key, await licenseDefaults({ db: tx as never }, { state: p.license!.state, license_type: p.license!.license_type }));
  }
  for (const part of chunks(newLicenses, 200)) {
    const created = await tx
      .insert(licenses)
      .values(
        part.map((p) => {
          const l = p.license!;
          const start = defaults.get(`${l.state}|${l.license_type}`)!;
          const topics = (start.rule?.topics ?? []).map((t) => ({ topic: t.topic, hours: t.hours }));
          return {
            user_id: p.existingUser?.user_id ?? userIds.get(p.personKey)!,
            license_number: l.license_number,
            state: l.state,
            license_type: l.license_type,
            issue_date: l.issue_date,
            expiration_date: l.expiration_date,
            status: l.status,
            ce_hours_required: l.ce_hours_required ?? start.ce_hours_required,
            ce_hours_completed: 0,
            ce_topics_missing: topics,
            ce_topic_hours_missing: roundHours(topics.reduce((sum, t) => sum + t.hours, 0)),
            cycle_start_date: l.issue_date,
          };
        }),
      )
      .returning({ license_id: licenses.license_id, updated_at: licenses.updated_at });
    created.forEach((l, i) => entry(part[i]!.row).created.push({ table: 'licenses', id: l.license_id, updated_at: l.updated_at }));
  }
  // Changes to existing licenses, through the licenses service.
  for (const p of plans) {
    if (!p.licenseChanges || !p.existingLicense || out.failed.has(p.row)) continue;
    try {
      const after = await updateLicense(ctx, { id: p.existingLicense.license_id, ...p.licenseChanges });
      const before = Object.fromEntries(Object.keys(p.licenseChanges).map((k) => [k, p.existingLicense![k as keyof LicenseRow]]));
      entry(p.row).updated.push({ table: 'licenses', id: after.license_id, before, updated_at: after.updated_at });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      out.failed.set(p.row, err.message);
    }
  }
  return out;
}

/** Whether the brokerage still has people (a brokerage an import created is removed by undo only when empty). */
export async function brokerageInUse(tx: Tx, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.user_id })
    .from(users)
    .where(and(eq(users.brokerage_id, id)))
    .limit(1);
  return !!row;
}
