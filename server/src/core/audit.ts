import { sql } from 'drizzle-orm';
import { auditLogs } from '../db/schema/index.ts';
import { preparedWrite } from '../db/prepared.ts';
import type { Tx } from '../db/client.ts';

/** Who did it and from where: the part of the request context that every audit entry needs. */
export interface Actor {
  userId: number | null;
  ip: string | null;
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

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => NOT_SECRET.has(k) || !SECRET_KEY.test(k))
        .map(([k, v]) => [k, scrub(v)]),
    );
  }
  return value;
}

function toJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(scrub(value));
}

// Every mutation writes one: built and prepared once (db/prepared.ts), the time given per entry.
const insertEntry = preparedWrite<Record<string, unknown>>('audit_entry', (d) =>
  d.insert(auditLogs).values({
    timestamp: sql.placeholder('timestamp'),
    user_id: sql.placeholder('user_id'),
    ip_address: sql.placeholder('ip_address'),
    action: sql.placeholder('action'),
    target_table: sql.placeholder('target_table'),
    target_id: sql.placeholder('target_id'),
    old_values: sql.placeholder('old_values'),
    new_values: sql.placeholder('new_values'),
  }),
);

/**
 * The one audit function. Call it with the transaction handle of the change it records, so the
 * change and its entry commit together or not at all. Secrets are removed from old and new values.
 */
export async function audit(tx: Tx, actor: Actor, entry: AuditEntry): Promise<void> {
  await insertEntry(tx, {
    timestamp: new Date().toISOString(),
    user_id: actor.userId,
    ip_address: actor.ip,
    action: entry.action,
    target_table: entry.table ?? null,
    target_id: entry.id ?? null,
    old_values: toJson(entry.old),
    new_values: toJson(entry.new),
  });
}
