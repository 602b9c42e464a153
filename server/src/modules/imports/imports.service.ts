/**
 * Imports (docs/decisions.md "Imports"): an uploaded file's rows are kept (import_rows) with their preview; the
 * mapping can change and the preview is recomputed from the kept rows; a commit re-evaluates every row inside its
 * one transaction (never trusting the stale preview) and writes the valid ones with one audit entry for the batch
 * (plus what the create and update paths it calls audit themselves); undo removes what the commit created and
 * restores what it updated, refusing (409, naming the rows) when any of them changed since.
 * Each caller sees its own imports; an Admin every import (imports.all). Out of scope: 404.
 */
import crypto from 'node:crypto';
import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import {
  can,
  IMPORT_FIELDS,
  IMPORT_STRINGS,
  importUploadFields,
  type ImportCommitOutput,
  type ImportCounts,
  type ImportKind,
  type ImportListOutput,
  type ImportMapping,
  type ImportPreview,
  type ImportRowWritten,
  type ImportUndoOutput,
  type importGetInput,
  type importListQuery,
  type importMappingInput,
} from '@lm/shared';
import type { z } from 'zod';
import { brokerages, completions, importRows, imports, licenses, users } from '../../db/schema/index.ts';
import type { Tx } from '../../db/client.ts';
import { countOf } from '../../db/sql.ts';
import { readPage } from '../../db/list.ts';
import { driverCode } from '../../db/errors.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { audit } from '../../core/audit.ts';
import { getSettings } from '../../core/settings.ts';
import { hashPassword } from '../../core/passwords.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../base/errors.ts';
import { sendWelcome, updateUser } from '../users/users.service.ts';
import { licenseWithHolder, updateLicense } from '../licenses/licenses.service.ts';
import { getPublicUser } from '../users/users.queries.ts';
import { emitEvent, emitEvents } from '../webhooks/events.ts';
import { recordDeletions } from '../deletions/deletions.service.ts';
import { refreshCeCache } from '../licenses/ce-ledger.ts';
import { notifyCourseCompleted } from '../notification-management/events.ts';
import { cleanMapping, chunks, guessMapping, type RowResult } from './imports.rows.ts';
import { brokerageInUse, evaluateRoster, writeRoster } from './imports.roster.ts';
import { evaluateCompletions, planCompletions, writeCompletions } from './imports.completions.ts';
import { readImportFile, type ReadSheet } from './imports.read.ts';

type ImportRow = typeof imports.$inferSelect;
const MB = 1024 * 1024;

/** The kind's own action: roster (Admin; a Broker with a brokerage) or completions (Admin, School). */
function assertKind(ctx: AuthedContext, kind: ImportKind): void {
  if (kind === 'roster') {
    if (!can(ctx.user, 'imports.roster')) throw forbidden('Only Admins and Brokers import rosters');
    if (!can(ctx.user, 'imports.roster', { brokerage_id: ctx.user.brokerage_id })) throw forbidden('You are not assigned to a brokerage');
  } else if (!can(ctx.user, 'imports.completions')) throw forbidden('Only Admins and Schools import completions');
}

const scopeOf = (ctx: AuthedContext): SQL | undefined =>
  can(ctx.user, 'imports.all') ? undefined : eq(imports.created_by, ctx.user.user_id);

async function visibleImport(ctx: AuthedContext, db: AuthedContext['db'] | Tx, id: number): Promise<ImportRow> {
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.import_id, id), scopeOf(ctx)));
  if (!row) throw notFound('Import');
  return row;
}

function countsOf(results: RowResult[]): ImportCounts {
  const counts: ImportCounts = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const r of results) counts[r.action]++;
  return counts;
}

/** Every row's action and errors under `mapping` (reads only; completions: a rolled-back dry run). */
async function evaluate(
  ctx: AuthedContext,
  imp: Pick<ImportRow, 'kind' | 'headers' | 'brokerage_id'>,
  mapping: ImportMapping,
  data: ReadSheet['rows'],
) {
  const { date_format } = await getSettings(ctx.db);
  if (imp.kind === 'roster') return (await evaluateRoster(ctx, ctx.db, imp.headers, mapping, data, date_format, imp.brokerage_id)).results;
  return (await evaluateCompletions(ctx, imp.headers, mapping, data, date_format)).results;
}

/** Writes the rows' results (with their cells) in chunks: a 10,000-row file is 20 inserts. */
async function writeRows(
  tx: Tx,
  importId: number,
  data: ReadSheet['rows'],
  results: RowResult[],
  written?: Map<number, ImportRowWritten>,
): Promise<void> {
  const byRow = new Map(results.map((r) => [r.row, r]));
  await tx.delete(importRows).where(eq(importRows.import_id, importId));
  for (const part of chunks(data, 500)) {
    await tx.insert(importRows).values(
      part.map((d) => {
        const r = byRow.get(d.row)!;
        return {
          import_id: importId,
          row_number: d.row,
          cells: d.cells,
          action: r.action,
          summary: r.summary,
          errors: r.errors,
          written: written?.get(d.row) ?? null,
        };
      }),
    );
  }
}

async function keptRows(db: AuthedContext['db'] | Tx, importId: number): Promise<ReadSheet['rows']> {
  const rows = await db
    .select({ row: importRows.row_number, cells: importRows.cells })
    .from(importRows)
    .where(eq(importRows.import_id, importId))
    .orderBy(asc(importRows.row_number));
  return rows;
}

/** POST /api/imports: reads the file, guesses the mapping and keeps the rows with their preview. Writes nothing else. */
export async function createImport(
  ctx: AuthedContext,
  raw: Record<string, string>,
  file: { file_name: string; bytes: Buffer },
): Promise<ImportPreview> {
  const fields = importUploadFields.safeParse(raw);
  if (!fields.success) throw badRequest(fields.error.issues[0]?.message ?? 'The request is not valid');
  const { kind, sheet, send_welcome } = fields.data;
  assertKind(ctx, kind);
  const settings = await getSettings(ctx.db);
  const sheetRead = await readImportFile(file.file_name, file.bytes, settings.max_file_size_mb * MB, sheet || undefined);
  const mapping = guessMapping(kind, sheetRead.headers);
  const scope = { kind, headers: sheetRead.headers, brokerage_id: can(ctx.user, 'imports.all') ? null : ctx.user.brokerage_id };
  const results = await evaluate(ctx, scope, mapping, sheetRead.rows);
  const counts = countsOf(results);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(imports)
      .values({
        kind,
        file_name: file.file_name,
        created_by: ctx.user.user_id,
        created_by_name: `${ctx.user.first_name} ${ctx.user.last_name}`.trim(),
        brokerage_id: scope.brokerage_id,
        send_welcome,
        headers: sheetRead.headers,
        mapping,
        counts,
        created_brokerages: [],
      })
      .returning({ id: imports.import_id });
    await writeRows(tx, row!.id, sheetRead.rows, results);
    await audit(tx, ctx.actor, {
      action: 'import_previewed',
      table: 'imports',
      id: row!.id,
      new: { kind, file_name: file.file_name, rows: sheetRead.rows.length, counts },
    });
    return row!.id;
  });
  return getImport(ctx, { id, page: 1, page_size: 50 });
}

export async function listImports(ctx: AuthedContext, q: z.output<typeof importListQuery>): Promise<ImportListOutput> {
  const where = and(scopeOf(ctx), q.kind ? eq(imports.kind, q.kind) : undefined);
  const { rows, pagination } = await readPage(q, {
    count: async () => (await ctx.db.select({ n: countOf() }).from(imports).where(where))[0]?.n,
    rows: (w) =>
      ctx.db
        .select({
          import_id: imports.import_id,
          kind: imports.kind,
          status: imports.status,
          file_name: imports.file_name,
          created_by: imports.created_by,
          created_by_name: imports.created_by_name,
          created_at: imports.created_at,
          committed_at: imports.committed_at,
          undone_at: imports.undone_at,
          counts: imports.counts,
        })
        .from(imports)
        .where(where)
        .orderBy(desc(imports.created_at), desc(imports.import_id))
        .limit(w.limit)
        .offset(w.offset),
  });
  return { imports: rows, pagination };
}

export async function getImport(ctx: AuthedContext, q: z.output<typeof importGetInput>): Promise<ImportPreview> {
  const imp = await visibleImport(ctx, ctx.db, q.id);
  const where = and(eq(importRows.import_id, imp.import_id), q.filter ? eq(importRows.action, q.filter) : undefined);
  const [total] = await ctx.db.select({ n: countOf() }).from(importRows).where(where);
  const rows = await ctx.db
    .select({ row: importRows.row_number, action: importRows.action, summary: importRows.summary, errors: importRows.errors })
    .from(importRows)
    .where(where)
    .orderBy(asc(importRows.row_number))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  // Sample values: the first rows with a value in each column.
  const first = await ctx.db
    .select({ cells: importRows.cells })
    .from(importRows)
    .where(eq(importRows.import_id, imp.import_id))
    .orderBy(asc(importRows.row_number))
    .limit(20);
  const columns = imp.headers.map((name, i) => ({
    name,
    samples: first
      .map((r) => r.cells[i] ?? '')
      .filter(Boolean)
      .slice(0, 3),
  }));
  return {
    import_id: imp.import_id,
    kind: imp.kind,
    status: imp.status,
    file_name: imp.file_name,
    columns,
    mapping: imp.mapping,
    fields: IMPORT_FIELDS[imp.kind].map((f) => ({ id: f.id, label: f.label, required: f.required })),
    counts: imp.counts,
    rows: rows.map((r) => ({ row: r.row, action: r.action, ...(r.summary ? { summary: r.summary } : {}), errors: r.errors })),
    page: q.page,
    page_size: q.page_size,
    total_rows: total?.n ?? 0,
  };
}

export async function updateMapping(ctx: AuthedContext, input: z.output<typeof importMappingInput>): Promise<ImportPreview> {
  const imp = await visibleImport(ctx, ctx.db, input.id);
  if (imp.status !== 'previewed') throw conflict(IMPORT_STRINGS.notPreviewed);
  const { mapping, problems } = cleanMapping(imp.kind, imp.headers, input.mapping);
  if (problems.length)
    throw badRequest(
      problems[0]!,
      problems.map((message) => ({ path: 'mapping', message })),
    );
  const data = await keptRows(ctx.db, imp.import_id);
  const results = await evaluate(ctx, imp, mapping, data);
  const counts = countsOf(results);
  await ctx.db.transaction(async (tx) => {
    const current = await visibleImport(ctx, tx, imp.import_id);
    if (current.status !== 'previewed') throw conflict(IMPORT_STRINGS.notPreviewed);
    await writeRows(tx, imp.import_id, data, results);
    await tx.update(imports).set({ mapping, counts }).where(eq(imports.import_id, imp.import_id));
    await audit(tx, ctx.actor, {
      action: 'update',
      table: 'imports',
      id: imp.import_id,
      old: { mapping: imp.mapping },
      new: { mapping, counts },
    });
  });
  return getImport(ctx, { id: imp.import_id, page: 1, page_size: 50 });
}

/**
 * POST /api/imports/{id}/commit: every row evaluated again inside the one transaction, the valid ones written, the
 * rows' results and what they wrote kept for undo, one audit entry for the batch. A refusal of a create or update
 * path (a savepoint) makes that row an error; anything else rolls the whole batch back.
 */
export async function commitImport(ctx: AuthedContext, id: number): Promise<ImportCommitOutput> {
  const imp = await visibleImport(ctx, ctx.db, id);
  if (imp.status !== 'previewed') throw conflict(IMPORT_STRINGS.alreadyCommitted);
  assertKind(ctx, imp.kind);
  const missing = IMPORT_FIELDS[imp.kind].filter((f) => f.required && !Object.values(imp.mapping).includes(f.id));
  if (missing.length) throw badRequest(IMPORT_STRINGS.missingRequired(missing.map((f) => f.label)));
  const { date_format } = await getSettings(ctx.db);
  // New people get a password nobody knows (one hash per import, before the transaction): the welcome link sets theirs.
  const unusable = imp.kind === 'roster' ? await hashPassword(crypto.randomBytes(32).toString('base64url')) : '';
  const outcome = await ctx.db.transaction(async (tx) => {
    const current = await visibleImport(ctx, tx, id);
    if (current.status !== 'previewed') throw conflict(IMPORT_STRINGS.alreadyCommitted);
    const data = await keptRows(tx, id);
    let results: RowResult[];
    let written: Map<number, ImportRowWritten>;
    let createdBrokerages: number[] = [];
    let createdUserIds: number[] = [];
    let approved: number[] = [];
    if (imp.kind === 'roster') {
      const evaluated = await evaluateRoster(ctx, tx, imp.headers, imp.mapping, data, date_format, imp.brokerage_id);
      const w = await writeRoster(ctx, tx, evaluated.plans, unusable);
      for (const r of evaluated.results) {
        const failure = w.failed.get(r.row);
        if (failure) {
          r.action = 'error';
          r.errors = [{ column: 'Row', message: failure }];
        }
      }
      results = evaluated.results;
      written = w.written;
      createdBrokerages = w.createdBrokerages;
      createdUserIds = w.createdUserIds;
    } else {
      const planned = await planCompletions(ctx, tx, imp.headers, imp.mapping, data, date_format);
      const w = await writeCompletions(ctx, tx, planned.plans, imp.mapping);
      for (const r of planned.results) {
        const failure = w.failed.get(r.row);
        if (failure) {
          r.action = 'error';
          r.errors = [failure];
        }
      }
      results = planned.results;
      written = w.written;
      approved = w.approved;
    }
    const counts = countsOf(results);
    await writeRows(tx, id, data, results, written);
    const now = new Date().toISOString();
    await tx
      .update(imports)
      .set({ status: 'committed', counts, committed_at: now, created_brokerages: createdBrokerages })
      .where(eq(imports.import_id, id));
    const all = [...written.values()];
    await audit(tx, ctx.actor, {
      action: 'import_committed',
      table: 'imports',
      id,
      new: {
        kind: imp.kind,
        file_name: imp.file_name,
        counts,
        created: {
          brokerages: createdBrokerages,
          users: all.flatMap((w) => w.created.filter((c) => c.table === 'users').map((c) => c.id)),
          licenses: all.flatMap((w) => w.created.filter((c) => c.table === 'licenses').map((c) => c.id)),
          completions: all.flatMap((w) => w.created.filter((c) => c.table === 'completions').map((c) => c.id)),
        },
        updated: all.flatMap((w) => w.updated.map((u) => ({ table: u.table, id: u.id, old: u.before }))),
      },
    });
    // What the import made, announced as the single paths announce it (updates did so through their own paths).
    const createdOf = (table: 'users' | 'licenses') => all.flatMap((w) => w.created.filter((c) => c.table === table).map((c) => c.id));
    await emitEvents(tx, 'user.created', () => readEach(createdOf('users'), (userId) => getPublicUser(tx, userId)));
    await emitEvents(tx, 'license.created', () => readEach(createdOf('licenses'), (licenseId) => licenseWithHolder(tx, licenseId)));
    await emitEvent(tx, 'import.committed', { import_id: id, kind: imp.kind, file_name: imp.file_name, counts });
    return { counts, createdUserIds, approved };
  });
  // After the commit, as the single paths do: welcome e-mails (only when the import asked), course_completed notices.
  if (imp.send_welcome) for (const userId of outcome.createdUserIds) sendWelcome(ctx, userId);
  for (const completionId of outcome.approved) notifyCourseCompleted(ctx, completionId);
  const n = outcome.counts.create + outcome.counts.update;
  return { import_id: id, status: 'committed', counts: outcome.counts, written: n, message: IMPORT_STRINGS.committed(n) };
}

/** Each id's object, read one after the other (one connection); ids whose object is gone are left out. */
async function readEach<T>(ids: number[], read: (id: number) => Promise<T | null | undefined>): Promise<T[]> {
  const out: T[] = [];
  for (const id of ids) {
    const v = await read(id);
    if (v) out.push(v);
  }
  return out;
}

const TABLES = { users, licenses, completions } as const;
const idColumn = { users: users.user_id, licenses: licenses.license_id, completions: completions.completion_id } as const;

/** updated_at of each object named, read in bulk per table (chunks of 500). */
async function updatedAtOf(tx: Tx, objects: Array<{ table: keyof typeof TABLES; id: number }>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const table of Object.keys(TABLES) as Array<keyof typeof TABLES>) {
    const ids = objects.filter((o) => o.table === table).map((o) => o.id);
    for (const part of chunks(ids)) {
      const t = TABLES[table];
      const rows = await tx.select({ id: idColumn[table], updated_at: t.updated_at }).from(t).where(inArray(idColumn[table], part));
      for (const r of rows) out.set(`${table}|${r.id}`, r.updated_at);
    }
  }
  return out;
}

/**
 * POST /api/imports/{id}/undo: in one transaction, every object the import created is deleted and every one it
 * updated gets its before-image back (through updateUser and updateLicense); 409 naming the rows when any of them
 * changed since the commit (its updated_at moved, it is gone, or something now depends on it).
 */
export async function undoImport(ctx: AuthedContext, id: number): Promise<ImportUndoOutput> {
  const imp = await visibleImport(ctx, ctx.db, id);
  if (imp.status !== 'committed') throw conflict(IMPORT_STRINGS.notCommitted);
  assertKind(ctx, imp.kind);
  const result = await ctx.db.transaction(async (tx) => {
    const current = await visibleImport(ctx, tx, id);
    if (current.status !== 'committed') throw conflict(IMPORT_STRINGS.notCommitted);
    const rows = await tx
      .select({ row: importRows.row_number, written: importRows.written })
      .from(importRows)
      .where(and(eq(importRows.import_id, id), inArray(importRows.action, ['create', 'update'])))
      .orderBy(asc(importRows.row_number));
    const changedRows = new Set<number>();
    const objectsOf = (r: (typeof rows)[number]) => [...(r.written?.created ?? []), ...(r.written?.updated ?? [])];
    const now = await updatedAtOf(tx, rows.flatMap(objectsOf));
    for (const r of rows) {
      for (const o of objectsOf(r)) if (now.get(`${o.table}|${o.id}`) !== o.updated_at) changedRows.add(r.row);
    }
    if (changedRows.size) throw conflict(IMPORT_STRINGS.changedSince([...changedRows].sort((a, b) => a - b)));
    let removed = 0;
    let restored = 0;
    // Updates first (their own paths, audited), then what was created: completions, licenses, then people.
    for (const r of rows) {
      for (const u of r.written?.updated ?? []) {
        if (u.table === 'users') await updateUser(ctx, { id: u.id, ...u.before } as Parameters<typeof updateUser>[1]);
        else await updateLicense(ctx, { id: u.id, ...u.before });
        restored++;
      }
    }
    const created = rows.flatMap((r) => (r.written?.created ?? []).map((c) => ({ ...c, row: r.row })));
    const byTable = (t: string) => created.filter((c) => c.table === t);
    const refused = (rowsOf: number[]) => conflict(IMPORT_STRINGS.changedSince(rowsOf));
    for (const part of chunks(byTable('completions'))) {
      const gone = await tx
        .delete(completions)
        .where(
          inArray(
            completions.completion_id,
            part.map((c) => c.id),
          ),
        )
        .returning({ license_id: completions.license_id });
      for (const licenseId of new Set(gone.map((g) => g.license_id).filter((l): l is number => l !== null)))
        await refreshCeCache(tx, licenseId);
      removed += gone.length;
    }
    // Tombstones for a sync (docs/api.md "Changes since"), in this transaction: the licenses' holders, the people.
    for (const part of chunks(byTable('licenses'))) {
      const held = await tx
        .select({ license_id: licenses.license_id, user_id: licenses.user_id })
        .from(licenses)
        .where(
          inArray(
            licenses.license_id,
            part.map((c) => c.id),
          ),
        );
      await recordDeletions(
        tx,
        'licenses',
        held.map((l) => ({ objectId: l.license_id, userId: l.user_id })),
      );
    }
    await recordDeletions(
      tx,
      'users',
      byTable('users').map((u) => ({ objectId: u.id, userId: u.id })),
    );
    for (const [table, column] of [
      ['licenses', licenses.license_id],
      ['users', users.user_id],
    ] as const) {
      for (const part of chunks(byTable(table))) {
        try {
          removed += (
            await ctx.db.transaction(async (sp) =>
              sp
                .delete(TABLES[table])
                .where(
                  inArray(
                    column,
                    part.map((c) => c.id),
                  ),
                )
                .returning({ id: column }),
            )
          ).length;
        } catch (err) {
          // Something else now points at them (a completion, a payment, a document): they are in use.
          const code = driverCode(err);
          const inUse =
            code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503' || (err instanceof AppError && err.appCode === 'CONFLICT');
          if (inUse) throw refused([...new Set(part.map((c) => c.row))]);
          throw err;
        }
      }
    }
    for (const b of current.created_brokerages) {
      if (!(await brokerageInUse(tx, b))) {
        await tx.delete(brokerages).where(eq(brokerages.brokerage_id, b));
        removed++;
      }
    }
    await tx.update(imports).set({ status: 'undone', undone_at: new Date().toISOString() }).where(eq(imports.import_id, id));
    await audit(tx, ctx.actor, {
      action: 'import_undone',
      table: 'imports',
      id,
      old: { created: created.map((c) => ({ table: c.table, id: c.id })) },
      new: { removed, restored },
    });
    return { removed, restored };
  });
  return { import_id: id, status: 'undone', ...result, message: IMPORT_STRINGS.undone };
}

/** The error rows of an import (its errors.csv): the row number, the file's cells and the errors. */
export async function errorRows(ctx: AuthedContext, id: number) {
  const imp = await visibleImport(ctx, ctx.db, id);
  const rows = await ctx.db
    .select({ row: importRows.row_number, cells: importRows.cells, errors: importRows.errors })
    .from(importRows)
    .where(and(eq(importRows.import_id, imp.import_id), eq(importRows.action, 'error')))
    .orderBy(asc(importRows.row_number));
  return { headers: imp.headers, file_name: imp.file_name, rows };
}
