/**
 * The restore itself: the chosen groups are copied from an extracted snapshot into the live database
 * in ONE transaction. The snapshot is ATTACHed; for each chosen table the live rows are deleted and
 * the snapshot's inserted. Foreign-key actions are off while tables are swapped (otherwise deleting
 * the live brokerages would null every user's brokerage before the same brokerages come back);
 * afterwards references to rows that no longer exist are handled as the schema's ON DELETE says
 * (SET NULL, CASCADE), and PRAGMA foreign_key_check must find nothing before the commit.
 */
import type Database from 'better-sqlite3';
import type { BackupGroup, RestoreResult } from '@lm/shared';
import type { Context } from '../../core/context.ts';
import type { AuthSession, AuthUser } from '../auth/sessions.ts';
import { audit } from '../../core/audit.ts';
import { conflict } from '../../core/errors.ts';
import { refreshAllCeCaches } from '../licenses/ce-ledger.ts';

/** Tables of each group. audit_logs is never restored (append-only); backups describe files on disk. */
export const GROUP_TABLES: Record<BackupGroup, string[]> = {
  users: ['users'],
  brokerages: ['brokerages'],
  // The CE ledger's tables travel with the licenses (docs/decisions.md "CE ledger and cycles").
  licenses: ['licenses', 'ce_adjustments', 'license_cycles', 'ce_rules'],
  courses: ['courses', 'completions'],
  payments: ['payments'],
  settings: ['settings'],
};

const SCHEMA_ALIAS = 'snap';

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

function columns(sqlite: Database.Database, schema: string, table: string): string[] {
  return (sqlite.prepare(`PRAGMA ${schema}.table_info(${q(table)})`).all() as Array<{ name: string }>).map((c) => c.name);
}

function userTables(sqlite: Database.Database): string[] {
  return sqlite
    .prepare(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'`)
    .pluck()
    .all() as string[];
}

interface ForeignKey {
  table: string;
  from: string;
  to: string | null;
  on_delete: string;
}

/**
 * Rows that point at a parent row which is gone get what ON DELETE would have given them: SET NULL
 * clears the column, CASCADE removes the row. RESTRICT/NO ACTION stay for foreign_key_check to report.
 * Repeats until nothing changes (a cascade can orphan further rows).
 */
function settleDanglingReferences(sqlite: Database.Database): Record<string, number> {
  const cleared: Record<string, number> = {};
  const fks: Array<{ child: string; fk: ForeignKey }> = [];
  for (const child of userTables(sqlite)) {
    for (const fk of sqlite.prepare(`PRAGMA main.foreign_key_list(${q(child)})`).all() as ForeignKey[]) fks.push({ child, fk });
  }
  for (let pass = 0; pass < 10; pass++) {
    let changed = 0;
    for (const { child, fk } of fks) {
      const parentKey = fk.to ?? 'rowid';
      const dangling = `${q(fk.from)} IS NOT NULL AND ${q(fk.from)} NOT IN (SELECT ${q(parentKey)} FROM main.${q(fk.table)})`;
      let n = 0;
      if (fk.on_delete === 'SET NULL')
        n = sqlite.prepare(`UPDATE main.${q(child)} SET ${q(fk.from)} = NULL WHERE ${dangling}`).run().changes;
      else if (fk.on_delete === 'CASCADE') n = sqlite.prepare(`DELETE FROM main.${q(child)} WHERE ${dangling}`).run().changes;
      if (n > 0) {
        const key = `${child}.${fk.from}`;
        cleared[key] = (cleared[key] ?? 0) + n;
        changed += n;
      }
    }
    if (changed === 0) break;
  }
  return cleared;
}

/** A readable reason from foreign_key_check rows: which table refers to which missing rows. */
function describeViolations(rows: Array<{ table: string; parent: string }>): string {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(`${r.table}|${r.parent}`, (counts.get(`${r.table}|${r.parent}`) ?? 0) + 1);
  const parts = [...counts].map(([k, n]) => {
    const [table, parent] = k.split('|');
    return `${n} ${table} record${n === 1 ? '' : 's'} would refer to ${parent} that would no longer exist`;
  });
  return `Nothing was restored: ${parts.join('; ')}. Restore the related groups together.`;
}

export interface RestoreMeta {
  backupId: number;
  safetyBackupId: number;
  source: 'backup' | 'upload';
}

/**
 * Synchronous from ATTACH to DETACH: no other request runs while foreign keys are off, and the
 * transaction is IMMEDIATE, so the swap is all-or-nothing. Throws 409 (nothing changed) when the
 * chosen groups would leave a reference dangling that the schema does not allow to be cleared.
 */
export function restoreGroups(
  ctx: Context & { user: AuthUser; session: AuthSession },
  snapshotFile: string,
  groups: BackupGroup[],
  meta: RestoreMeta,
): RestoreResult {
  const sqlite = ctx.db.$client;
  sqlite.prepare(`ATTACH DATABASE ? AS ${SCHEMA_ALIAS}`).run(snapshotFile);
  const fkWasOn = sqlite.pragma('foreign_keys', { simple: true }) === 1;
  sqlite.pragma('foreign_keys = OFF'); // a no-op inside a transaction, so it is set before BEGIN
  try {
    return ctx.db.transaction(
      (tx) => {
        const rowCounts: Record<string, number> = {};
        for (const group of groups) {
          for (const table of GROUP_TABLES[group]) {
            const live = columns(sqlite, 'main', table);
            const theirs = new Set(columns(sqlite, SCHEMA_ALIAS, table));
            const missing = live.filter((c) => !theirs.has(c));
            if (theirs.size === 0 || missing.length > 0) {
              throw conflict(`The backup's ${table} table does not match this version of License Manager`);
            }
            const list = live.map(q).join(', ');
            sqlite.prepare(`DELETE FROM main.${q(table)}`).run();
            sqlite.prepare(`INSERT INTO main.${q(table)} (${list}) SELECT ${list} FROM ${SCHEMA_ALIAS}.${q(table)}`).run();
            rowCounts[table] = sqlite
              .prepare(`SELECT count(*) FROM main.${q(table)}`)
              .pluck()
              .get() as number;
          }
        }

        // Restored users may have other passwords, roles or states: every session ends, except the
        // caller's own when the same person is still an active Admin in the restored data.
        let signedOut = false;
        if (groups.includes('users')) {
          const me = sqlite
            .prepare('SELECT email, role_id, is_active, deleted_at FROM main.users WHERE user_id = ?')
            .get(ctx.user.user_id) as { email: string; role_id: number; is_active: number; deleted_at: string | null } | undefined;
          const keep =
            !!me && me.email.toLowerCase() === ctx.user.email.toLowerCase() && me.role_id === 1 && me.is_active === 1 && !me.deleted_at;
          signedOut = !keep;
          sqlite
            .prepare('UPDATE main.sessions SET revoked_at = ? WHERE revoked_at IS NULL AND session_id <> ?')
            .run(new Date().toISOString(), keep ? ctx.session.session_id : -1);
          // Known sign-in sources were learnt for the accounts as they were: restored ids may be other people.
          sqlite.prepare('DELETE FROM main.known_sources').run();
        }

        const referencesCleared = settleDanglingReferences(sqlite);
        const violations = sqlite.pragma('main.foreign_key_check') as Array<{ table: string; parent: string }>;
        if (violations.length > 0) throw conflict(describeViolations(violations));
        // The licenses' CE caches are recomputed from whatever sources now exist (409 if a cycle went below 0).
        refreshAllCeCaches(tx);

        const result: RestoreResult = {
          success: true,
          backup_id: meta.backupId,
          safety_backup_id: meta.safetyBackupId,
          restored: groups,
          row_counts: rowCounts,
          references_cleared: referencesCleared,
          signed_out: signedOut,
        };
        const { success: _s, ...details } = result;
        audit(tx, ctx.actor, { action: 'restore', table: 'backups', id: meta.backupId, new: { ...details, source: meta.source } });
        return result;
      },
      { behavior: 'immediate' },
    );
  } finally {
    if (fkWasOn) sqlite.pragma('foreign_keys = ON');
    sqlite.exec(`DETACH DATABASE ${SCHEMA_ALIAS}`);
  }
}
