import { DEFAULT_SETTINGS, type Settings, type SettingsUpdateInput } from '@lm/shared';
import { settings as settingsTable } from '../../db/schema/index.ts';
import type { Context } from '../../core/context.ts';
import type { AuthUser } from '../auth/sessions.ts';
import { audit } from '../../core/audit.ts';
import { effectiveLogLevel, getSettings, invalidateSettings, writeSettings } from '../../core/settings.ts';

type AdminCtx = Context & { user: AuthUser };

/** Applies the settings that act on the running process rather than on each request (the log level). */
export function applyRuntimeSettings(ctx: Pick<Context, 'db' | 'services'>): void {
  ctx.services.setLogLevel?.(effectiveLogLevel(getSettings(ctx.db)));
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
export function getAll(ctx: Pick<Context, 'db'>): { settings: Settings } {
  return { settings: getSettings(ctx.db) };
}

/**
 * PUT /api/admin/settings. The input is validated by the shared schema (docs/product.md section 5 messages);
 * every field is optional so an integrator may send only what changes. Only changed keys are written,
 * and one audit entry records their old and new values.
 */
export function update(ctx: AdminCtx, input: SettingsUpdateInput): { settings: Settings } {
  const before = getSettings(ctx.db);
  const { old, next, keys } = diff(before, input.settings);
  if (keys.length > 0) {
    const values = Object.fromEntries(keys.map((k) => [k, next[k]])) as Partial<Settings>;
    ctx.db.transaction((tx) => {
      writeSettings(tx, values, ctx.user.user_id);
      audit(tx, ctx.actor, { action: 'update', table: 'settings', old, new: next });
    });
    if (keys.includes('log_level') || keys.includes('debug_mode')) applyRuntimeSettings(ctx);
  }
  return getAll(ctx);
}

/** POST /api/admin/settings/reset: removes every stored value, so the defaults apply again. */
export function reset(ctx: AdminCtx): { settings: Settings } {
  const before = getSettings(ctx.db);
  const { old, next } = diff(before, DEFAULT_SETTINGS);
  ctx.db.transaction((tx) => {
    tx.delete(settingsTable).run();
    audit(tx, ctx.actor, { action: 'update', table: 'settings', old, new: { ...next, reset_to_defaults: true } });
  });
  invalidateSettings();
  applyRuntimeSettings(ctx);
  return getAll(ctx);
}
