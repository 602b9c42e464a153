import { DEFAULT_SETTINGS, settingsSchema, type Settings } from '@lm/shared';
import { settings as settingsTable } from '../db/schema/index.ts';
import type { Db, DbOrTx } from '../db/client.ts';

/**
 * Stored settings merged over the docs/product.md defaults. Reads are cached per database handle and the
 * cache is dropped on every write, so a change takes effect on the next request.
 */
const cache = new WeakMap<object, { generation: number; value: Settings }>();
let generation = 0;

export function getSettings(db: Db): Settings {
  const hit = cache.get(db.$client);
  if (hit && hit.generation === generation) return hit.value;
  const rows = db.select().from(settingsTable).all();
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
  cache.set(db.$client, { generation, value: result });
  return result;
}

/** Writes the given settings (already validated); call inside the transaction that audits it. */
export function writeSettings(db: DbOrTx, values: Partial<Settings>, userId: number | null): void {
  const now = new Date().toISOString();
  for (const [key, value] of Object.entries(values)) {
    db.insert(settingsTable)
      .values({ key, value: JSON.stringify(value), updated_at: now, updated_by: userId })
      .onConflictDoUpdate({ target: settingsTable.key, set: { value: JSON.stringify(value), updated_at: now, updated_by: userId } })
      .run();
  }
  invalidateSettings();
}

/** Drops every cached copy (a transaction handle cannot name its database, so all go). */
export function invalidateSettings(): void {
  generation++;
}

/** The server log level the settings ask for: debug_mode turns on debug logging whatever log_level says. */
export function effectiveLogLevel(settings: Pick<Settings, 'debug_mode' | 'log_level'>): Settings['log_level'] {
  return settings.debug_mode ? 'debug' : settings.log_level;
}
