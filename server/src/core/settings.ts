import { DEFAULT_SETTINGS, settingsSchema, type Settings } from '@lm/shared';
import { settings as settingsTable } from '../db/schema/index.ts';
import type { Db, DbOrTx, Tx } from '../db/client.ts';

/**
 * Stored settings merged over the docs/product.md defaults. Reads through a database handle are cached
 * and the cache is dropped after every committed write (invalidateSettings), so a change takes effect on
 * this instance's next request; when other instances share the database (PostgreSQL) a cached copy is
 * also trusted for at most SHARED_TTL_MS, so their changes (maintenance mode included) arrive within
 * seconds (docs/architecture.md "Several instances"). Inside a transaction settings are read fresh.
 */
const cache = new WeakMap<object, { generation: number; at: number; value: Settings }>();
let generation = 0;
export const SHARED_TTL_MS = 2_000;

export async function getSettings(db: DbOrTx): Promise<Settings> {
  const cacheable = 'transaction' in db;
  const hit = cacheable ? cache.get(db) : undefined;
  if (hit && hit.generation === generation && (!(db as Db).shared || Date.now() - hit.at < SHARED_TTL_MS)) return hit.value;
  const startedAt = generation;
  const rows = await db.select().from(settingsTable);
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    if (!(row.key in DEFAULT_SETTINGS)) continue;
    try {
      merged[row.key] = JSON.parse(row.value);
    } catch {
      // A value that does not parse is ignored: the default stands.
    }
  }
  // A stored value that no longer passes validation falls back to its default, field by field.
  const parsed = settingsSchema.safeParse(merged);
  let result: Settings;
  if (parsed.success) result = parsed.data;
  else {
    const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
    for (const key of bad) merged[key] = DEFAULT_SETTINGS[key as keyof Settings];
    result = settingsSchema.parse(merged);
  }
  if (cacheable && startedAt === generation) cache.set(db, { generation, at: Date.now(), value: result });
  return result;
}

/**
 * Writes the given settings (already validated); call inside the transaction that audits it, and
 * invalidateSettings() once it has committed (a read between the write and the commit would otherwise
 * cache the old values).
 */
export async function writeSettings(tx: Tx, values: Partial<Settings>, userId: number | null): Promise<void> {
  const now = new Date().toISOString();
  for (const [key, value] of Object.entries(values)) {
    await tx
      .insert(settingsTable)
      .values({ key, value: JSON.stringify(value), updated_at: now, updated_by: userId })
      .onConflictDoUpdate({ target: settingsTable.key, set: { value: JSON.stringify(value), updated_at: now, updated_by: userId } });
  }
  invalidateSettings();
}

/** Drops every cached copy (call after the transaction that changed settings has committed). */
export function invalidateSettings(): void {
  generation++;
}

/** The server log level the settings ask for: debug_mode turns on debug logging whatever log_level says. */
export function effectiveLogLevel(settings: Pick<Settings, 'debug_mode' | 'log_level'>): Settings['log_level'] {
  return settings.debug_mode ? 'debug' : settings.log_level;
}
