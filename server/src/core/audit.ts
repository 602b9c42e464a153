import { eq, sql } from 'drizzle-orm';
import { auditLogs, users } from '../db/schema/index.ts';
import { preparedWrite } from '../db/prepared.ts';
import type { Tx } from '../db/client.ts';

/**
 * Who did it, from where, and who that was at the time: the part of the request context that every audit
 * entry needs. The name and e-mail are written into the entry as they are now, so a later rename, a new
 * e-mail or users restored from elsewhere never change who an old entry names (docs/decisions.md "Audit: who acted").
 */
export interface Actor {
  userId: number | null;
  ip: string | null;
  /** `first_name last_name` trimmed; 'System' for the system; null when nobody is known (an anonymous request). */
  name: string | null;
  email: string | null;
}

/** The system's own actions (the daily pass, deliveries, default templates, first start, the demo): no user, no address. */
export const SYSTEM_ACTOR: Readonly<Actor> = Object.freeze({ userId: null, ip: null, name: 'System', email: null });

/** The audit name of a user: `first_name last_name`, trimmed. */
export const actorName = (u: { first_name: string; last_name: string }): string => `${u.first_name} ${u.last_name}`.trim();

/** A signed-in (or just identified) user acting from `ip`, with the name and e-mail they have now. */
export function userActor(u: { user_id: number; first_name: string; last_name: string; email: string }, ip: string | null): Actor {
  return { userId: u.user_id, ip, name: actorName(u), email: u.email };
}

/**
 * An API key's call (docs/decisions.md "Audit: who acted"): named "API key: {name}", no e-mail, the key's creator as
 * the user (filtering the log by that person shows its keys' calls too).
 */
export function apiKeyActor(key: { name: string; user: { user_id: number } }, ip: string | null): Actor {
  return { userId: key.user.user_id, ip, name: `API key: ${key.name}`, email: null };
}

/** Nobody known: a request by address only (a password-reset request, a sign-in naming no account). */
export const anonymousActor = (ip: string | null): Actor => ({ userId: null, ip, name: null, email: null });

/**
 * An actor known only by its user id (the demo seeds, tests): audit() reads the user's name and e-mail as
 * they are now, inside the entry's transaction. Without a user it names the system when there is no
 * address either, as the one-time migration did. Request paths pass a full Actor and cost no read.
 */
export interface ActorById {
  userId: number | null;
  ip: string | null;
  name?: undefined;
  email?: undefined;
}

export interface AuditEntry {
  action: string;
  table?: string | null;
  id?: number | null;
  old?: unknown;
  new?: unknown;
}

/** Keys whose values never reach the audit log. */
const SECRET_KEY = /pass(word)?|hash|token|secret|smtp_url/i;
/** Names that match SECRET_KEY but hold no secret (a settings change must show its values). */
const NOT_SECRET = new Set(['password_min_length']);

/** Whether a key's value is left out, kept per key name (the same column names come in every entry). */
const secretKeys = new Map<string, boolean>();
function isSecretKey(key: string): boolean {
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    secret = !NOT_SECRET.has(key) && SECRET_KEY.test(key);
    if (secretKeys.size < 1_000) secretKeys.set(key, secret);
  }
  return secret;
}

const dropSecrets = (key: string, v: unknown) => (key !== '' && isSecretKey(key) ? undefined : v);

/**
 * Whether a secret key is anywhere in `value` (JSON.stringify's keys: own enumerable ones, at any depth). An object
 * with its own toJSON (but a Date) counts as holding one: what it turns into is not seen here.
 */
function holdsSecretKey(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object' || value instanceof Date) return false;
  if (depth > 32 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  if (Array.isArray(value)) return value.some((v) => holdsSecretKey(v, depth + 1));
  for (const key of Object.keys(value)) {
    if (isSecretKey(key) || holdsSecretKey((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

/**
 * The entry's JSON without secret keys at any depth, no copy of the value (docs/performance.md "API throughput"):
 * JSON.stringify as it is when no key is secret (most entries: a license, a payment), else with a replacer that
 * leaves them out. Array indexes are never secret.
 */
function toJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, holdsSecretKey(value) ? dropSecrets : undefined);
}

// Every mutation writes one: built and prepared once (db/prepared.ts), the time given per entry.
const insertEntry = preparedWrite<Record<string, unknown>>('audit_entry', (d) =>
  d.insert(auditLogs).values({
    timestamp: sql.placeholder('timestamp'),
    user_id: sql.placeholder('user_id'),
    actor_name: sql.placeholder('actor_name'),
    actor_email: sql.placeholder('actor_email'),
    ip_address: sql.placeholder('ip_address'),
    action: sql.placeholder('action'),
    target_table: sql.placeholder('target_table'),
    target_id: sql.placeholder('target_id'),
    old_values: sql.placeholder('old_values'),
    new_values: sql.placeholder('new_values'),
  }),
);

async function named(tx: Tx, actor: Actor | ActorById): Promise<Actor> {
  if (actor.name !== undefined) return actor as Actor;
  if (actor.userId === null) return actor.ip === null ? SYSTEM_ACTOR : anonymousActor(actor.ip);
  const [u] = await tx
    .select({ user_id: users.user_id, first_name: users.first_name, last_name: users.last_name, email: users.email })
    .from(users)
    .where(eq(users.user_id, actor.userId));
  return u ? userActor(u, actor.ip) : { userId: actor.userId, ip: actor.ip, name: null, email: null };
}

/**
 * The one audit function. Call it with the transaction handle of the change it records, so the
 * change and its entry commit together or not at all. Secrets are removed from old and new values.
 * The actor's name and e-mail are stored with the entry (a snapshot; readers never look them up).
 */
export async function audit(tx: Tx, actorOrId: Actor | ActorById, entry: AuditEntry): Promise<void> {
  const actor = await named(tx, actorOrId);
  await insertEntry(tx, {
    timestamp: new Date().toISOString(),
    user_id: actor.userId,
    actor_name: actor.name,
    actor_email: actor.email,
    ip_address: actor.ip,
    action: entry.action,
    target_table: entry.table ?? null,
    target_id: entry.id ?? null,
    old_values: toJson(entry.old),
    new_values: toJson(entry.new),
  });
}
