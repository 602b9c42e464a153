/**
 * Backups and restore (Admin only). A backup runs inline: the API answers once the zip is written
 * (an online snapshot of a database of 100 MB takes well under a second, the zip a few more), so the
 * answer carries the completed (or failed) backup. Every step writes an audit entry.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  backupFileName,
  chosenGroups,
  BACKUP_STRINGS,
  type Backup,
  type BackupGroup,
  type BackupList,
  type BackupPage,
  type BackupPageQuery,
  type BackupTotals,
  type BackupType,
  type CreateBackupInput,
  type RestoreFlags,
  type RestoreResult,
} from '@lm/shared';
import { backups, documentVersions, users } from '../../db/schema/index.ts';
import type { AuthedContext, Context } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { AppError, badRequest, conflict, notFound } from '../../base/errors.ts';
import { getSettings, invalidateSettings } from '../../core/settings.ts';
import { applyRuntimeSettings } from '../settings/settings.service.ts';
import {
  collectDataFiles,
  eachDocumentFile,
  UPLOAD_INFLATION_RATIO,
  MANIFEST_APP,
  MANIFEST_FORMAT,
  sha256File,
  writeBackupZip,
  type Manifest,
  type StoredEntry,
} from './backups.archive.ts';
import { prepareSnapshot, removeDatabaseFile, takeSnapshot } from './backups.snapshot.ts';
import { restoreGroups, type RestoreSource } from './backups.restore.ts';
import { caseInsensitive, containsText, countOf, countWhere, sumOf } from '../../db/sql.ts';
import { directionOf, orderOf, readPage } from '../../db/list.ts';

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

/**
 * One backup or restore at a time for the whole office, across every app instance (db.exclusive: in
 * process on SQLite, an advisory lock on PostgreSQL). A restore's safety backup runs under the restore's hold.
 */
export const BACKUP_LOCK = 'license-manager:backups';
const BUSY = 'Another backup or restore is running; try again when it has finished';

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

type BackupRow = Awaited<ReturnType<typeof selectBackups>>[number];
const toBackup = ({ file_name: _f, ...row }: BackupRow): Backup => row;

async function findRow(ctx: Pick<Context, 'db'>, id: number): Promise<BackupRow> {
  const [row] = await selectBackups(ctx).where(eq(backups.id, id));
  if (!row) throw notFound('Backup');
  return row;
}

export async function getBackup(ctx: Pick<Context, 'db'>, id: number): Promise<Backup> {
  return toBackup(await findRow(ctx, id));
}

export async function list(ctx: Pick<Context, 'db'>): Promise<BackupList> {
  const rows = await selectBackups(ctx).orderBy(desc(backups.created_at), desc(backups.id));
  return {
    total: rows.length,
    completed: rows.filter((r) => r.status === 'completed').length,
    in_progress: rows.filter((r) => r.status === 'in_progress').length,
    total_size: rows.reduce((sum, r) => sum + r.size, 0),
    backups: rows.map(toBackup),
  };
}

const BACKUP_SORT: Record<NonNullable<BackupPageQuery['sort']>, SQL> = {
  description: caseInsensitive(backups.description),
  created_at: sql`${backups.created_at}`,
  size: sql`${backups.size}`,
  status: sql`${backups.status}`,
  type: sql`${backups.type}`,
};

/** The cards' figures over every backup. */
async function totals(ctx: Pick<Context, 'db'>): Promise<BackupTotals> {
  const [t] = await ctx.db
    .select({
      total: countOf(),
      completed: countWhere(sql`${backups.status} = 'completed'`),
      in_progress: countWhere(sql`${backups.status} = 'in_progress'`),
      total_size: sumOf(backups.size),
    })
    .from(backups);
  return { total: t?.total ?? 0, completed: t?.completed ?? 0, in_progress: t?.in_progress ?? 0, total_size: Number(t?.total_size ?? 0) };
}

/**
 * The backups list (a list of files): filters, sort (default newest first) with the id as tie-break, one
 * page, its total, and the cards' figures over every backup.
 */
export async function page(ctx: Pick<Context, 'db' | 'config'>, q: BackupPageQuery = {}): Promise<BackupPage> {
  const where = and(
    q.search ? or(containsText(backups.description, q.search), containsText(creatorName, q.search)) : undefined,
    q.status ? eq(backups.status, q.status) : undefined,
    q.type ? eq(backups.type, q.type) : undefined,
  );
  const { rows, pagination } = await readPage(q, {
    count: async () =>
      (await ctx.db.select({ n: countOf() }).from(backups).leftJoin(users, eq(users.user_id, backups.created_by)).where(where))[0]?.n,
    rows: ({ limit, offset }) =>
      selectBackups(ctx)
        .where(where)
        .orderBy(...orderOf([BACKUP_SORT[q.sort ?? 'created_at']], directionOf(q, 'created_at'), backups.id))
        .limit(limit)
        .offset(offset),
  });
  return { backups: rows.map(toBackup), pagination, totals: await totals(ctx), upload_limit_mb: ctx.config.backupUploadLimitMb };
}

/** The zip of a completed backup (404 when the row or its file is gone, 409 unless completed). */
export async function zipPathOf(ctx: Pick<Context, 'db' | 'config'>, id: number): Promise<string> {
  const row = await findRow(ctx, id);
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
 * The stored files of every document version (deleted documents too: they keep their files), read through the
 * file store so a backup on PostgreSQL carries them as well (docs/architecture.md "Stored files").
 */
async function storedDocumentFiles(ctx: AuthedContext): Promise<Array<StoredEntry & { size: number }>> {
  const rows = await ctx.db
    .select({ key: documentVersions.storage_key, size: documentVersions.size })
    .from(documentVersions)
    .orderBy(asc(documentVersions.version_id));
  const out: Array<StoredEntry & { size: number }> = [];
  for (const r of rows) {
    if (!(await ctx.db.files.has(r.key))) continue; // a file already gone cannot be backed up
    out.push({ rel: `documents/${r.key}`, size: r.size, open: () => ctx.db.files.openRead(r.key) });
  }
  return out;
}

/**
 * After the documents group was restored: every version whose file the store no longer has gets it back from
 * the backup (through the file store, at most the recorded size); files the store still has are kept, and
 * versions whose file is in neither stay without one.
 */
async function restoreDocumentFiles(ctx: AuthedContext, zipFile: string): Promise<void> {
  const rows = await ctx.db.select({ key: documentVersions.storage_key, size: documentVersions.size }).from(documentVersions);
  const sizes = new Map<string, number>();
  for (const r of rows) if (!(await ctx.db.files.has(r.key))) sizes.set(r.key, r.size);
  if (sizes.size === 0) return;
  await eachDocumentFile(zipFile, new Set(sizes.keys()), async (key, stream) => {
    await ctx.db.files.put(key, stream, {
      maxBytes: sizes.get(key)!,
      tooLargeMessage: 'A stored file in the backup is larger than recorded',
    });
  });
}

/**
 * Creates a backup: the row (in_progress, audited), a consistent snapshot, the zip with its manifest and,
 * with include_files, $DATA_DIR/documents and outbox; then completed with its size, or failed with
 * the reason (both audited). A failure answers 500 with 'Failed to create backup: <reason>'; another
 * backup or restore running (on any instance) answers 409.
 */
export async function create(ctx: AuthedContext, input: CreateBackupInput, type: BackupType = 'manual'): Promise<Backup> {
  const held = await ctx.db.exclusive(BACKUP_LOCK, () => createHeld(ctx, input, type));
  if (!held.acquired) throw conflict(BUSY);
  return held.value;
}

/** create() while holding BACKUP_LOCK. */
async function createHeld(ctx: AuthedContext, input: CreateBackupInput, type: BackupType): Promise<Backup> {
  const description = (input.description ?? '').trim();
  const includeFiles = input.include_files ?? true;
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(backups)
      .values({ description, status: 'in_progress', type, include_files: includeFiles, created_by: ctx.user.user_id })
      .returning();
    await audit(tx, ctx.actor, {
      action: 'create',
      table: 'backups',
      id: created!.id,
      new: { description, type, include_files: includeFiles, status: 'in_progress' },
    });
    return created!;
  });
  const scratch = path.join(workDir(ctx), `backup_${row.id}_${crypto.randomBytes(4).toString('hex')}`);
  try {
    fs.mkdirSync(scratch, { recursive: true });
    const snapshot = await takeSnapshot(ctx.db, path.join(scratch, 'database.sqlite'));
    const files = includeFiles ? collectDataFiles(ctx.config.dataDir) : [];
    const stored = includeFiles ? await storedDocumentFiles(ctx) : [];
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
      files: [...files.map((f) => ({ path: f.rel, size: f.size })), ...stored.map((f) => ({ path: f.rel, size: f.size }))],
    };
    const fileName = backupFileName(row.id);
    const size = await writeBackupZip(path.join(backupsDir(ctx), fileName), { databaseFile: snapshot.file, manifest, files, stored });
    const completedAt = new Date().toISOString();
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(backups)
        .set({ status: 'completed', size, file_name: fileName, manifest: JSON.stringify(manifest), completed_at: completedAt, error: null })
        .where(eq(backups.id, row.id));
      await audit(tx, ctx.actor, {
        action: 'update',
        table: 'backups',
        id: row.id,
        old: { status: 'in_progress' },
        new: { status: 'completed', size, file_name: fileName, row_counts: manifest.row_counts, files: files.length },
      });
    });
  } catch (err) {
    const reason = short(err);
    const failedAt = new Date().toISOString();
    await ctx.db.transaction(async (tx) => {
      await tx.update(backups).set({ status: 'failed', error: reason, completed_at: failedAt }).where(eq(backups.id, row.id));
      await audit(tx, ctx.actor, {
        action: 'update',
        table: 'backups',
        id: row.id,
        old: { status: 'in_progress' },
        new: { status: 'failed', error: reason },
      });
    });
    throw new AppError('INTERNAL_SERVER_ERROR', `${BACKUP_STRINGS.createFailed}: ${reason}`, { cause: err });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return getBackup(ctx, row.id);
}

/**
 * Deletes the row (audited) and then its zip. A backup being written right now (on any instance)
 * answers 409; an in_progress row nobody is writing was interrupted and may go.
 */
export async function remove(ctx: AuthedContext, id: number): Promise<{ success: true }> {
  const row = await findRow(ctx, id);
  const drop = async () => {
    await ctx.db.transaction(async (tx) => {
      await tx.delete(backups).where(eq(backups.id, id));
      const { file_name: _f, ...old } = row;
      await audit(tx, ctx.actor, { action: 'delete', table: 'backups', id, old });
    });
    if (row.file_name) fs.rmSync(path.join(backupsDir(ctx), path.basename(row.file_name)), { force: true });
  };
  if (row.status === 'in_progress') {
    const held = await ctx.db.exclusive(BACKUP_LOCK, drop);
    if (!held.acquired) throw conflict('This backup is still being written; delete it when it has finished');
  } else {
    await drop();
  }
  return { success: true };
}

/** Records a download in the audit log (a backup holds every record of the office). */
export async function auditDownload(ctx: AuthedContext, id: number): Promise<void> {
  await ctx.db.transaction((tx) => audit(tx, ctx.actor, { action: 'download', table: 'backups', id }));
}

/**
 * Restores the chosen groups of a completed backup: validate (manifest, checksum, quick_check,
 * schema), take a safety backup, then swap the groups in one transaction (backups.restore.ts).
 * Another backup or restore running (on any instance) answers 409.
 */
export async function restore(
  ctx: AuthedContext,
  id: number,
  flags: RestoreFlags,
  source: RestoreSource = 'backup',
): Promise<RestoreResult> {
  const groups = chosenGroups(flags);
  if (groups.length === 0) throw badRequest(BACKUP_STRINGS.noGroup);
  const zipFile = await zipPathOf(ctx, id);
  const held = await ctx.db.exclusive(BACKUP_LOCK, () => restoreHeld(ctx, id, zipFile, groups, source));
  if (!held.acquired) throw conflict(BUSY);
  return held.value;
}

async function restoreHeld(
  ctx: AuthedContext,
  id: number,
  zipFile: string,
  groups: BackupGroup[],
  source: RestoreSource,
): Promise<RestoreResult> {
  const workFile = restoreWorkFile(ctx, id);
  try {
    fs.mkdirSync(workDir(ctx), { recursive: true });
    await prepareSnapshot(zipFile, workFile);
    let safety: Backup;
    try {
      safety = await createHeld(ctx, { description: `Safety backup before restoring backup #${id}`, include_files: false }, 'safety');
    } catch (err) {
      throw new AppError('INTERNAL_SERVER_ERROR', 'The safety backup failed, so nothing was restored', { cause: err });
    }
    const result = await restoreGroups(ctx, workFile, groups, { backupId: id, safetyBackupId: safety.id, source });
    if (groups.includes('documents')) await restoreDocumentFiles(ctx, zipFile);
    invalidateSettings();
    await applyRuntimeSettings(ctx);
    return result;
  } catch (err) {
    // A refused or failed restore changed nothing, but the attempt is part of the record.
    await ctx.db.transaction((tx) =>
      audit(tx, ctx.actor, { action: 'restore_failed', table: 'backups', id, new: { restored: groups, source, error: short(err) } }),
    );
    throw err;
  } finally {
    removeDatabaseFile(workFile);
  }
}

/**
 * Imports an uploaded zip (already on disk at `uploadedZip`, under $DATA_DIR/backups/.work) as a new
 * completed backup of type 'uploaded', after the same validation a restore does. The zip is moved into
 * $DATA_DIR/backups once its row is committed; should the move fail, the row is marked failed.
 */
export async function importUpload(ctx: AuthedContext, uploadedZip: string, description: string | undefined): Promise<Backup> {
  const check = path.join(workDir(ctx), `upload_${crypto.randomBytes(6).toString('hex')}.sqlite`);
  let manifest: Manifest;
  try {
    // An upload comes from outside: the whole archive may inflate to at most UPLOAD_INFLATION_RATIO x its own size, or
    // x the file upload limit when that is larger (room for a nearly empty database, whose free pages deflate far better).
    const floor = (await getSettings(ctx.db)).max_file_size_mb * 1024 * 1024;
    const maxInflatedBytes = Math.max(fs.statSync(uploadedZip).size, floor) * UPLOAD_INFLATION_RATIO;
    manifest = await prepareSnapshot(uploadedZip, check, { maxInflatedBytes });
  } finally {
    removeDatabaseFile(check);
  }
  const size = fs.statSync(uploadedZip).size;
  const text =
    (description ?? '').trim() ||
    `Uploaded copy of backup #${manifest.backup_id}${manifest.description ? ` (${manifest.description})` : ''} from ${manifest.created_at}`;
  const now = new Date().toISOString();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
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
      .returning();
    const fileName = backupFileName(created!.id);
    await tx.update(backups).set({ file_name: fileName }).where(eq(backups.id, created!.id));
    await audit(tx, ctx.actor, {
      action: 'create',
      table: 'backups',
      id: created!.id,
      new: {
        description: created!.description,
        type: 'uploaded',
        size,
        source_backup_id: manifest.backup_id,
        source_created_at: manifest.created_at,
        row_counts: manifest.row_counts,
      },
    });
    return { id: created!.id, fileName };
  });
  try {
    fs.renameSync(uploadedZip, path.join(backupsDir(ctx), row.fileName));
  } catch (err) {
    const reason = short(err);
    await ctx.db.transaction(async (tx) => {
      await tx.update(backups).set({ status: 'failed', error: reason, file_name: null }).where(eq(backups.id, row.id));
      await audit(tx, ctx.actor, {
        action: 'update',
        table: 'backups',
        id: row.id,
        old: { status: 'completed' },
        new: { status: 'failed', error: reason },
      });
    });
    throw new AppError('INTERNAL_SERVER_ERROR', `The uploaded backup could not be stored: ${reason}`, { cause: err });
  }
  return getBackup(ctx, row.id);
}
