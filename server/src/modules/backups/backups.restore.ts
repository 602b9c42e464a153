/**
 * The restore itself: the chosen groups are copied from an extracted snapshot into the live database
 * in ONE transaction (db/portable.ts restoreFromSnapshot, on SQLite and PostgreSQL alike): for each
 * chosen table the live rows are replaced by the snapshot's, with foreign-key actions out of the way
 * while tables are swapped; afterwards references to rows that no longer exist are handled as the
 * schema's ON DELETE says (SET NULL, CASCADE), and a reference the schema does not allow to clear
 * refuses the whole restore (409, nothing changed).
 */
import { and, asc, eq, gt, isNull, lte, ne } from 'drizzle-orm';
import { BACKUP_GROUP_CONTENTS, BACKUP_GROUPS, can, type BackupGroup, type RestoreResult } from '@lm/shared';
import type { AuthedContext } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { knownSources, licenses, sessions, users } from '../../db/schema/index.ts';
import { restoreFromSnapshot } from '../../db/portable.ts';
import type { Tx } from '../../db/client.ts';
import { refreshCeCaches } from '../licenses/ce-ledger.ts';
import { rebuildTotals } from '../../db/totals.ts';

/** Tables of each group: what the restore modal lists (BACKUP_GROUP_CONTENTS, shared with the client). */
export const GROUP_TABLES = Object.fromEntries(BACKUP_GROUPS.map((g) => [g, BACKUP_GROUP_CONTENTS[g].map((c) => c.table)])) as Record<
  BackupGroup,
  string[]
>;

/** Where the restored backup came from: the list, an upload, or a file on the server (`npm run db:restore`). */
export type RestoreSource = 'backup' | 'upload' | 'file';

export interface RestoreMeta {
  backupId: number;
  safetyBackupId: number;
  source: RestoreSource;
}

/** Licenses whose CE caches are recomputed together after a restore. */
const CE_CHUNK = 2000;

/**
 * refreshAllCeCaches (keeping updated_at), CE_CHUNK licenses at a time in id order: the licenses and sources a
 * restore holds in memory are one chunk's, however many licenses the office has (all at once, a restore of 50,000
 * licenses took 30 s instead of 16 s).
 */
async function refreshCeCachesInChunks(tx: Tx): Promise<void> {
  for (let after = 0; ;) {
    const ids = await tx
      .select({ id: licenses.license_id })
      .from(licenses)
      .where(gt(licenses.license_id, after))
      .orderBy(asc(licenses.license_id))
      .limit(CE_CHUNK);
    const last = ids.at(-1)?.id;
    if (last === undefined) return;
    await refreshCeCaches(tx, and(gt(licenses.license_id, after), lte(licenses.license_id, last)), false);
    after = last;
  }
}

/**
 * Restored users may have other passwords, roles or states: every session ends, except the caller's
 * own when the same person is still active in the restored data and may still restore (an Admin, by the policy). Known sign-in sources were
 * learnt for the accounts as they were (restored ids may be other people), so they go.
 */
async function endSessions(tx: Tx, ctx: AuthedContext): Promise<boolean> {
  const [me] = await tx
    .select({ email: users.email, role_id: users.role_id, is_active: users.is_active, deleted_at: users.deleted_at })
    .from(users)
    .where(eq(users.user_id, ctx.user.user_id));
  const keep =
    !!me && me.email.toLowerCase() === ctx.user.email.toLowerCase() && can(me, 'backups.restore') && me.is_active && !me.deleted_at;
  await tx
    .update(sessions)
    .set({ revoked_at: new Date().toISOString() })
    .where(and(isNull(sessions.revoked_at), ne(sessions.session_id, keep ? ctx.session.session_id : -1)));
  await tx.delete(knownSources);
  return !keep;
}

/**
 * Swaps the chosen groups in one transaction and records the restore in the audit log with it.
 * Throws 409 (nothing changed) when the chosen groups would leave a reference dangling that the
 * schema does not allow to be cleared.
 */
export function restoreGroups(ctx: AuthedContext, snapshotFile: string, groups: BackupGroup[], meta: RestoreMeta): Promise<RestoreResult> {
  const tables = groups.flatMap((g) => GROUP_TABLES[g]);
  let signedOut = false;
  return restoreFromSnapshot(ctx.db, snapshotFile, tables, {
    between: async (tx) => {
      signedOut = groups.includes('users') ? await endSessions(tx, ctx) : false;
    },
    after: async (tx, swap) => {
      // The licenses' CE caches are recomputed from whatever sources now exist (409 if a cycle went below 0).
      await refreshCeCachesInChunks(tx);
      // The running totals the reports read, recounted from the licenses and payments now there.
      await rebuildTotals(tx);
      const result: RestoreResult = {
        success: true,
        backup_id: meta.backupId,
        safety_backup_id: meta.safetyBackupId,
        restored: groups,
        row_counts: swap.rowCounts,
        references_cleared: swap.referencesCleared,
        signed_out: signedOut,
      };
      const { success: _s, ...details } = result;
      await audit(tx, ctx.actor, { action: 'restore', table: 'backups', id: meta.backupId, new: { ...details, source: meta.source } });
      return result;
    },
  });
}
