/**
 * Restoring a backup from a file already on the server (`npm run db:restore`, restore-cli.ts): for an archive too big
 * to upload through a browser. The same steps as an upload with restore=true, acting as a named Admin: the file is
 * copied into $DATA_DIR/backups/.work, validated and listed as a backup (importUpload), then restored (restore: a
 * safety backup first, one transaction, the audit entries under the Admin's name, source "file").
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import {
  BACKUP_GROUPS,
  BACKUP_STRINGS,
  can,
  normalizeEmail,
  restoreFlagsSchema,
  type Backup,
  type BackupGroup,
  type RestoreResult,
} from '@lm/shared';
import type { AppServices, AuthedContext } from '../../core/context.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { createSession, revokeSession } from '../../core/sessions.ts';
import { createContextInner } from '../../http/context.ts';
import { badRequest } from '../../base/errors.ts';
import * as backups from './backups.service.ts';

export interface FileRestoreOptions {
  /** The backup zip on this server. */
  file: string;
  /** The e-mail of an active Admin: the restore is theirs in the audit log. */
  as: string;
  groups: BackupGroup[];
  description?: string | undefined;
}

export interface FileRestoreOutcome {
  backup: Backup;
  result: RestoreResult;
}

/** The user agent of the short session the restore acts in (ended when it is done). */
export const FILE_RESTORE_AGENT = 'npm run db:restore';

/** The Admin named by `email` signed in for this restore only, or 400 when no active Admin has that e-mail. */
async function actingAdmin(deps: { db: Db; config: Config; services: AppServices }, email: string): Promise<AuthedContext> {
  const [user] = await deps.db
    .select({ user_id: users.user_id, role_id: users.role_id, is_active: users.is_active })
    .from(users)
    .where(and(eq(users.email, normalizeEmail(email)), isNull(users.deleted_at)));
  if (!user || !user.is_active || !can(user, 'backups.restore')) throw badRequest(`${email} is not an active Admin of this office`);
  const { token } = await deps.db.transaction((tx) => createSession(tx, user.user_id, { ip: null, userAgent: FILE_RESTORE_AGENT }));
  const ctx = await createContextInner({ ...deps, ip: null, userAgent: FILE_RESTORE_AGENT, token });
  if (!ctx.user || !ctx.session) throw badRequest(`${email} could not act for this restore`);
  return ctx as AuthedContext;
}

/**
 * Lists `opts.file` as a backup and restores its chosen groups; 400 for a file that is not a License Manager backup
 * (nothing changed), 409 for a newer schema or links the groups would break (nothing changed but the listed backup).
 */
export async function restoreFromFile(
  deps: { db: Db; config: Config; services: AppServices },
  opts: FileRestoreOptions,
): Promise<FileRestoreOutcome> {
  if (opts.groups.length === 0) throw badRequest(BACKUP_STRINGS.noGroup);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(opts.file);
  } catch {
    throw badRequest(`There is no file ${opts.file}`);
  }
  if (!stat.isFile()) throw badRequest(`${opts.file} is not a file`);
  const flags = restoreFlagsSchema.parse(Object.fromEntries(opts.groups.map((g) => [`include_${g}`, true])));
  const ctx = await actingAdmin(deps, opts.as);
  const work = backups.workDir(ctx);
  fs.mkdirSync(work, { recursive: true });
  // A copy (the operator's file stays where it is), moved into $DATA_DIR/backups once listed.
  let copy: string | null = path.join(work, `upload_${crypto.randomBytes(6).toString('hex')}.zip`);
  try {
    fs.copyFileSync(opts.file, copy);
    const description = opts.description?.trim() || `Restored from the file ${path.basename(opts.file)} on the server`;
    const listed = await backups.importUpload(ctx, copy, description);
    copy = null;
    const result = await backups.restore(ctx, listed.id, flags, 'file');
    return { backup: await backups.getBackup(ctx, listed.id), result };
  } finally {
    if (copy) fs.rmSync(copy, { force: true });
    await deps.db.transaction((tx) => revokeSession(tx, ctx.session.session_id));
  }
}

/** `--groups users,licenses` or `--all` as groups; 400 naming an unknown one. */
export function parseGroups(text: string | undefined, all: boolean): BackupGroup[] {
  if (all) return [...BACKUP_GROUPS];
  const names = (text ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.find((n) => !(BACKUP_GROUPS as readonly string[]).includes(n));
  if (unknown) throw badRequest(`"${unknown}" is not a kind of data a backup restores (${BACKUP_GROUPS.join(', ')})`);
  return [...new Set(names)] as BackupGroup[];
}
