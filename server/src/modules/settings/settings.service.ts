import { DEFAULT_SETTINGS, type Settings, type SettingsUpdateInput } from '@lm/shared';
import { settings as settingsTable } from '../../db/schema/index.ts';
import type { Context } from '../../core/context.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { audit } from '../../core/audit.ts';
import { effectiveLogLevel, getSettings, invalidateSettings, writeSettings } from '../../core/settings.ts';

/** Applies the settings that act on the running process rather than on each request (the log level). */
export async function applyRuntimeSettings(ctx: Pick<Context, 'db' | 'services'>): Promise<void> {
  ctx.services.setLogLevel?.(effectiveLogLevel(await getSettings(ctx.db)));
}

/** The keys whose values differ, with their old and new values (what the audit entry records). */
function diff(before: Settings, after: Partial<Settings>) {
  const old: Partial<Record<keyof Settings, unknown>> = {};
  const next: Partial<Record<keyof Settings, unknown>> = {};
  for (const key of Object.keys(after) as Array<keyof Settings>) {
    if (after[key] === undefined || after[key] === before[key]) continue;
    old[key] = before[key];
    next[key] = after[key];
  }
  return { old, next, keys: Object.keys(next) as Array<keyof Settings> };
}

/** GET /api/admin/settings: stored values over the docs/product.md defaults, always complete. */
export async function getAll(ctx: Pick<Context, 'db'>): Promise<{ settings: Settings }> {
  return { settings: await getSettings(ctx.db) };
}

/**
 * PUT /api/admin/settings. The input is validated by the shared schema (docs/product.md section 5 messages);
 * every field is optional so an integrator may send only what changes. Only changed keys are written,
 * and one audit entry records their old and new values (compared inside the transaction, so two
 * concurrent changes each record what they really replaced).
 */
export async function update(ctx: AuthedContext, input: SettingsUpdateInput): Promise<{ settings: Settings }> {
  const keys = await ctx.db.transaction(async (tx) => {
    const { old, next, keys } = diff(await getSettings(tx), input.settings);
    if (keys.length === 0) return keys;
    const values = Object.fromEntries(keys.map((k) => [k, next[k]])) as Partial<Settings>;
    await writeSettings(tx, values, ctx.user.user_id);
    await audit(tx, ctx.actor, { action: 'update', table: 'settings', old, new: next });
    return keys;
  });
  if (keys.length > 0) {
    invalidateSettings();
    if (keys.includes('log_level') || keys.includes('debug_mode')) await applyRuntimeSettings(ctx);
  }
  return getAll(ctx);
}

/** POST /api/admin/settings/reset: removes every stored value, so the defaults apply again. */
export async function reset(ctx: AuthedContext): Promise<{ settings: Settings }> {
  await ctx.db.transaction(async (tx) => {
    const { old, next } = diff(await getSettings(tx), DEFAULT_SETTINGS);
    await tx.delete(settingsTable);
    await audit(tx, ctx.actor, { action: 'update', table: 'settings', old, new: { ...next, reset_to_defaults: true } });
  });
  invalidateSettings();
  await applyRuntimeSettings(ctx);
  return getAll(ctx);
}
