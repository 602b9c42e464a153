/**
 * Backups and restore (Admin only). A backup runs inline: the API answers once the zip is written
 * (an online snapshot of a database of 100 MB takes well under a second, the zip a few more), so the
 * answer carries the completed (or failed) backup. Every step writes an audit entry.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import {
  backupFileName,
  chosenGroups,
  BACKUP_STRINGS,
  type Backup,
  type BackupList,
  type BackupType,
  type CreateBackupInput,
  type RestoreFlags,
  type RestoreResult,
} from '@lm/shared';
import { backups, users } from '../../db/schema/index.ts';
import type { Context } from '../../core/context.ts';
import type { AuthSession, AuthUser } from '../auth/sessions.ts';
import { audit } from '../../core/audit.ts';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.ts';
import { getSettings, invalidateSettings } from '../../core/settings.ts';
import { applyRuntimeSettings } from '../settings/settings.service.ts';
import {
  collectDataFiles,
  UPLOAD_INFLATION_RATIO,
  MANIFEST_APP,
  MANIFEST_FORMAT,
  sha256File,
  writeBackupZip,
  type Manifest,
} from './backups.archive.ts';
import { prepareSnapshot, removeDatabaseFile, takeSnapshot } from './backups.snapshot.ts';
import { restoreGroups } from './backups.restore.ts';

export type AdminCtx = Context & { user: AuthUser; session: AuthSession };

function readAppVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../../package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
const APP_VERSION = readAppVersion();

export const backupsDir = (ctx: Pick<Context, 'config'>) => path.join(ctx.config.dataDir, 'backups');
/** Private scratch space for snapshots being written or restored; never served. */
export const workDir = (ctx: Pick<Context, 'config'>) => path.join(backupsDir(ctx), '.work');
/** Where a restore extracts the snapshot of backup {id} (fixed, so a test can plant a stale -wal beside it). */
export const restoreWorkFile = (ctx: Pick<Context, 'config'>, id: number) => path.join(workDir(ctx), `restore_${id}.sqlite`);

/** Backups being written by this process; an in_progress row not in here was interrupted. */
const running = new Set<number>();
/** One restore at a time per database. */
const restoring = new WeakSet<object>();

const creatorName = sql<
  string | null
>`CASE WHEN ${users.user_id} IS NULL THEN NULL ELSE ${users.first_name} || ' ' || ${users.last_name} END`;

function selectBackups(ctx: Pick<Context, 'db'>) {
  return ctx.db
    .select({
      id: backups.id,
      description: backups.description,
      created_at: backups.created_at,
      completed_at: backups.completed_at,
      size: backups.size,
      status: backups.status,
      type: backups.type,
      include_files: backups.include_files,
      created_by: backups.created_by,
      created_by_name: creatorName,
      error: backups.error,
      file_name: backups.file_name,
    })
    .from(backups)
    .leftJoin(users, eq(users.user_id, backups.created_by));
}

type BackupRow = Awaited<ReturnType<ReturnType<typeof selectBackups>['all']>>[number];
const toBackup = ({ file_name: _f, ...row }: BackupRow): Backup => row;

function findRow(ctx: Pick<Context, 'db'>, id: number): BackupRow {
  const row = selectBackups(ctx).where(eq(backups.id, id)).get();
  if (!row) throw notFound('Backup');
  return row;
}

export function getBackup(ctx: Pick<Context, 'db'>, id: number): Backup {
  return toBackup(findRow(ctx, id));
}

export function list(ctx: Pick<Context, 'db'>): BackupList {
  const rows = selectBackups(ctx).orderBy(desc(backups.created_at), desc(backups.id)).all();
  return {
    total: rows.length,
    completed: rows.filter((r) => r.status === 'completed').length,
    in_progress: rows.filter((r) => r.status === 'in_progress').length,
    total_size: rows.reduce((sum, r) => sum + r.size, 0),
    backups: rows.map(toBackup),
  };
}

/** The zip of a completed backup (404 when the row or its file is gone, 409 unless completed). */
export function zipPathOf(ctx: Pick<Context, 'db' | 'config'>, id: number): string {
  const row = findRow(ctx, id);
  if (row.status !== 'completed' || !row.file_name) throw conflict('Only a completed backup can be downloaded or restored');
  const file = path.join(backupsDir(ctx), path.basename(row.file_name));
  if (!fs.existsSync(file)) throw notFound('Backup file');
  return file;
}

function short(err: unknown): string {
  if (err instanceof AppError) return err.message;
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : 'Unexpected error while writing the backup';
}

/**
 * Creates a backup: the row (in_progress, audited), an online snapshot, the zip with its manifest and,
 * with include_files, $DATA_DIR/documents and outbox; then completed with its size, or failed with
 * the reason (both audited). A failure answers 500 with 'Failed to create backup: <reason>'.
 */
export async function create(ctx: AdminCtx, input: CreateBackupInput, type: BackupType = 'manual'): Promise<Backup> {
  const description = (input.description ?? '').trim();
  const includeFiles = input.include_files ?? true;
  const row = ctx.db.transaction((tx) => {
    const created = tx
      .insert(backups)
      .values({ description, status: 'in_progress', type, include_files: includeFiles, created_by: ctx.user.user_id })
      .returning()
      .get();
    audit(tx, ctx.actor, {
      action: 'create',
      table: 'backups',
      id: created.id,
      new: { description, type, include_files: includeFiles, status: 'in_progress' },
    });
    return created;
  });
  running.add(row.id);
  const scratch = path.join(workDir(ctx), `backup_${row.id}_${crypto.randomBytes(4).toString('hex')}`);
  try {
    fs.mkdirSync(scratch, { recursive: true });
    const snapshot = await takeSnapshot(ctx.db, path.join(scratch, 'database.sqlite'));
    const files = includeFiles ? collectDataFiles(ctx.config.dataDir) : [];
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      app: MANIFEST_APP,
      app_version: APP_VERSION,
      backup_id: row.id,
      description,
      type,
      created_at: row.created_at,
      schema_version: snapshot.schema,
      database: { file: 'database.sqlite', size: snapshot.size, sha256: await sha256File(snapshot.file) },
      row_counts: snapshot.rowCounts,
      include_files: includeFiles,
      files: files.map((f) => ({ path: f.rel, size: f.size })),
    };
    const fileName = backupFileName(row.id);
    const size = await writeBackupZip(path.join(backupsDir(ctx), fileName), { databaseFile: snapshot.file, manifest, files });
    const completedAt = new Date().toISOString();
    ctx.db.transaction((tx) => {
      tx.update(backups)
        .set({ status: 'completed', size, file_name: fileName, manifest: JSON.stringify(manifest), completed_at: completedAt, error: null })
        .where(eq(backups.id, row.id))
        .run();
      audit(tx, ctx.actor, {
        action: 'update',
        table: 'backups',
        id: row.id,
        old: { status: 'in_progress' },
        new: { status: 'completed', size, file_name: fileName, row_counts: manifest.row_counts, files: files.length },
      });
    });
  } catch (err) {
    const reason = short(err);
    ctx.db.transaction((tx) => {
      tx.update(backups)
        .set({ status: 'failed', error: reason, completed_at: new Date().toISOString() })
        .where(eq(backups.id, row.id))
        .run();
      audit(tx, ctx.actor, {
        action: 'update',
        table: 'backups',
        id: row.id,
        old: { status: 'in_progress' },
        new: { status: 'failed', error: reason },
      });
    });
    throw new AppError('INTERNAL_SERVER_ERROR', `${BACKUP_STRINGS.createFailed}: ${reason}`, { cause: err });
  } finally {
    running.delete(row.id);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return getBackup(ctx, row.id);
}

/** Deletes the row (audited) and then its zip. A backup being written right now answers 409. */
export function remove(ctx: AdminCtx, id: number): { success: true } {
  const row = findRow(ctx, id);
  if (running.has(id)) throw conflict('This backup is still being written; delete it when it has finished');
  ctx.db.transaction((tx) => {
    tx.delete(backups).where(eq(backups.id, id)).run();
    const { file_name: _f, ...old } = row;
    audit(tx, ctx.actor, { action: 'delete', table: 'backups', id, old });
  });
  if (row.file_name) fs.rmSync(path.join(backupsDir(ctx), path.basename(row.file_name)), { force: true });
  return { success: true };
}

/** Records a download in the audit log (a backup holds every record of the office). */
export function auditDownload(ctx: AdminCtx, id: number): void {
  audit(ctx.db, ctx.actor, { action: 'download', table: 'backups', id });
}

/**
 * Restores the chosen groups of a completed backup: validate (manifest, checksum, quick_check,
 * schema), take a safety backup, then swap the groups in one transaction (backups.restore.ts).
 */
export async function restore(
  ctx: AdminCtx,
  id: number,
  flags: RestoreFlags,
  source: 'backup' | 'upload' = 'backup',
): Promise<RestoreResult> {
  const groups = chosenGroups(flags);
  if (groups.length === 0) throw badRequest(BACKUP_STRINGS.noGroup);
  const zipFile = zipPathOf(ctx, id);
  if (restoring.has(ctx.db.$client)) throw conflict('Another restore is running; try again when it has finished');
  restoring.add(ctx.db.$client);
  const workFile = restoreWorkFile(ctx, id);
  try {
    fs.mkdirSync(workDir(ctx), { recursive: true });
    await prepareSnapshot(ctx.db, zipFile, workFile);
    let safety: Backup;
    try {
      safety = await create(ctx, { description: `Safety backup before restoring backup #${id}`, include_files: false }, 'safety');
    } catch (err) {
      throw new AppError('INTERNAL_SERVER_ERROR', 'The safety backup failed, so nothing was restored', { cause: err });
    }
    const result = restoreGroups(ctx, workFile, groups, { backupId: id, safetyBackupId: safety.id, source });
    invalidateSettings();
    applyRuntimeSettings(ctx);
    return result;
  } catch (err) {
    // A refused or failed restore changed nothing, but the attempt is part of the record.
    audit(ctx.db, ctx.actor, { action: 'restore_failed', table: 'backups', id, new: { restored: groups, source, error: short(err) } });
    throw err;
  } finally {
    restoring.delete(ctx.db.$client);
    removeDatabaseFile(workFile);
  }
}

/**
 * Imports an uploaded zip (already on disk at `uploadedZip`) as a new completed backup of type
 * 'uploaded', after the same validation a restore does. The zip is moved into $DATA_DIR/backups.
 */
export async function importUpload(ctx: AdminCtx, uploadedZip: string, description: string | undefined): Promise<Backup> {
  const check = path.join(workDir(ctx), `upload_${crypto.randomBytes(6).toString('hex')}.sqlite`);
  let manifest: Manifest;
  try {
    // An upload comes from outside: its database may inflate to at most UPLOAD_INFLATION_RATIO x the upload limit.
    const maxDatabaseBytes = getSettings(ctx.db).max_file_size_mb * 1024 * 1024 * UPLOAD_INFLATION_RATIO;
    manifest = await prepareSnapshot(ctx.db, uploadedZip, check, { maxDatabaseBytes });
  } finally {
    removeDatabaseFile(check);
  }
  const size = fs.statSync(uploadedZip).size;
  const text =
    (description ?? '').trim() ||
    `Uploaded copy of backup #${manifest.backup_id}${manifest.description ? ` (${manifest.description})` : ''} from ${manifest.created_at}`;
  const id = ctx.db.transaction((tx) => {
    const now = new Date().toISOString();
    const row = tx
      .insert(backups)
      .values({
        description: text.slice(0, 500),
        status: 'completed',
        type: 'uploaded',
        include_files: manifest.include_files,
        created_by: ctx.user.user_id,
        size,
        manifest: JSON.stringify(manifest),
        completed_at: now,
      })
      .returning()
      .get();
    const fileName = backupFileName(row.id);
    tx.update(backups).set({ file_name: fileName }).where(eq(backups.id, row.id)).run();
    audit(tx, ctx.actor, {
      action: 'create',
      table: 'backups',
      id: row.id,
      new: {
        description: row.description,
        type: 'uploaded',
        size,
        source_backup_id: manifest.backup_id,
        source_created_at: manifest.created_at,
        row_counts: manifest.row_counts,
      },
    });
    // Last, so a failed move rolls the row back with it.
    fs.renameSync(uploadedZip, path.join(backupsDir(ctx), fileName));
    return row.id;
  });
  return getBackup(ctx, id);
}
