/**
 * Documents (docs/decisions.md "Documents"): a person's files with their versions. Scopes follow the owner:
 * Agent its own, Broker its brokerage's people, School only the CE certificates of completions of its courses,
 * Admin all; anything else answers 404. Deleted documents (soft delete) are gone everywhere. The bytes live in
 * the file store (db/files.ts): written under a fresh key before the transaction that records them.
 */
import { and, asc, eq, gt, inArray, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  certificateExtractionSchema,
  DOCUMENT_CATEGORY_LABELS,
  type DocumentCategory,
  type DocumentDetail,
  type DocumentItem,
  type DocumentListQuery,
  type DocumentPage,
  type DocumentUploadFields,
  type DocumentVersion,
  type UpdateDocumentInput,
} from '@lm/shared';
import { certificateCompletions, completions, courses, documents, documentVersions, licenses, users } from '../../db/schema/index.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { caseInsensitive, containsText, personNameOrder } from '../../db/sql.ts';
import { audit } from '../../core/audit.ts';
import { found, isAdmin, isSchool, visibleUsersCondition } from '../../core/scope.ts';
import { badRequest, notFound } from '../../base/errors.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import type { AuthUser } from '../../core/identity.ts';
import { assertPersonInScope } from '../licenses/licenses.service.ts';
import { notifyUser } from '../notifications/notify.ts';
import { queueExtraction } from './extraction/index.ts';
import { cappedCountOf, directionOf, keyColumns, orderOf, pageWhere, readPage, type CursorValue, type ListOrder } from '../../db/list.ts';
import { recordDeletion } from '../deletions/deletions.service.ts';
import { assertIfMatch } from '../../http/etag.ts';

export const DOCUMENT_MESSAGES = {
  licenseOfOwner: 'The license must be one of the owner’s own licenses',
  completionOfOwner: 'The completion must be one of the owner’s own completions',
} as const;

/**
 * Documents the caller may see (never deleted ones). A School: the certificates of its courses' completions, linked
 * by `documents.completion_id` or by a row of certificate_completions (a transcript proves several completions,
 * docs/decisions.md "One certificate, several completions").
 */
export function visibleDocumentsCondition(user: AuthUser): SQL {
  const conds: Array<SQL | undefined> = [isNull(documents.deleted_at)];
  if (isSchool(user)) {
    const ofItsCourses = sql`(SELECT ${completions.completion_id} FROM ${completions} INNER JOIN ${courses} ON ${courses.course_id} = ${completions.course_id} WHERE ${courses.school_id} = ${user.user_id})`;
    conds.push(
      eq(documents.category, 'ce_certificate'),
      or(
        inArray(documents.completion_id, ofItsCourses),
        inArray(
          documents.document_id,
          sql`(SELECT ${certificateCompletions.document_id} FROM ${certificateCompletions} WHERE ${certificateCompletions.completion_id} IN ${ofItsCourses})`,
        ),
      ),
    );
  } else if (!isAdmin(user)) {
    conds.push(visibleUsersCondition(user, documents.owner_id));
  }
  return and(...conds)!;
}

const uploaderName = (column: AnyColumn) =>
  sql<string | null>`(SELECT ${users.first_name} || ' ' || ${users.last_name} FROM ${users} WHERE ${users.user_id} = ${column})`;

const documentColumns = {
  document_id: documents.document_id,
  owner_id: documents.owner_id,
  owner_first: users.first_name,
  owner_last: users.last_name,
  license_id: documents.license_id,
  license_number: licenses.license_number,
  completion_id: documents.completion_id,
  completion_course_name: courses.course_name,
  category: documents.category,
  title: documents.title,
  current_version: documents.current_version,
  file_name: documentVersions.file_name,
  mime_type: documentVersions.mime_type,
  size: documentVersions.size,
  extraction_status: documentVersions.extraction_status,
  uploaded_by_name: uploaderName(documentVersions.uploaded_by),
  created_at: documents.created_at,
  updated_at: documents.updated_at,
};

function selectDocuments<K extends Record<string, SQL<CursorValue>>>(db: DbOrTx, keys?: K) {
  return db
    .select({ ...documentColumns, ...(keys as K) })
    .from(documents)
    .innerJoin(users, eq(users.user_id, documents.owner_id))
    .innerJoin(
      documentVersions,
      and(eq(documentVersions.document_id, documents.document_id), eq(documentVersions.version, documents.current_version)),
    )
    .leftJoin(licenses, eq(licenses.license_id, documents.license_id))
    .leftJoin(completions, eq(completions.completion_id, documents.completion_id))
    .leftJoin(courses, eq(courses.course_id, completions.course_id));
}

type DocumentRow = Awaited<ReturnType<ReturnType<typeof selectDocuments>['where']>>[number];

function toItem({ owner_first, owner_last, ...row }: DocumentRow): DocumentItem {
  return { ...row, owner_name: `${owner_first} ${owner_last}`, completion_course_name: row.completion_course_name ?? null };
}

function parseExtraction(text: string | null): DocumentVersion['extraction'] {
  if (!text) return null;
  try {
    const parsed = certificateExtractionSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Every version of a document, oldest first. */
async function versionsOf(db: DbOrTx, documentId: number): Promise<DocumentVersion[]> {
  const rows = await db
    .select({
      version_id: documentVersions.version_id,
      version: documentVersions.version,
      file_name: documentVersions.file_name,
      mime_type: documentVersions.mime_type,
      size: documentVersions.size,
      sha256: documentVersions.sha256,
      created_at: documentVersions.created_at,
      uploaded_by: documentVersions.uploaded_by,
      uploaded_by_name: uploaderName(documentVersions.uploaded_by),
      extraction_status: documentVersions.extraction_status,
      extraction: documentVersions.extraction,
      extraction_error: documentVersions.extraction_error,
    })
    .from(documentVersions)
    .where(eq(documentVersions.document_id, documentId))
    .orderBy(asc(documentVersions.version));
  return rows.map((r) => ({ ...r, extraction: parseExtraction(r.extraction) }));
}

/** One document the caller may see, with its versions, or 404. */
export async function getDocument(ctx: AuthedContext, documentId: number, db: DbOrTx = ctx.db): Promise<DocumentDetail> {
  const [row] = await selectDocuments(db).where(and(eq(documents.document_id, documentId), visibleDocumentsCondition(ctx.user)));
  const item = toItem(found(row, 'Document'));
  return { ...item, versions: await versionsOf(db, documentId) };
}

function whereOf(ctx: AuthedContext, q: DocumentListQuery): SQL {
  const conds: Array<SQL | undefined> = [visibleDocumentsCondition(ctx.user)];
  if (q.owner_id) conds.push(eq(documents.owner_id, q.owner_id));
  if (q.category) conds.push(eq(documents.category, q.category));
  if (q.license_id) conds.push(eq(documents.license_id, q.license_id));
  if (q.completion_id) conds.push(eq(documents.completion_id, q.completion_id));
  if (q.search) conds.push(containsText(documents.title, q.search));
  if (q.updated_since) conds.push(gt(documents.updated_at, q.updated_since));
  return and(...conds)!;
}

const SORTS: Record<NonNullable<DocumentListQuery['sort']>, SQL[]> = {
  created_at: [sql`${documents.created_at}`],
  title: [caseInsensitive(documents.title)],
  category: [sql`${documents.category}`],
  owner: personNameOrder(users),
};

/** GET /documents: one page of the documents in the caller's scope and the pagination. */
export async function pageDocuments(ctx: AuthedContext, q: DocumentListQuery = {}): Promise<DocumentPage> {
  const where = whereOf(ctx, q);
  // Newest first unless told otherwise.
  const order: ListOrder = { sort: SORTS[q.sort ?? 'created_at'], order: directionOf(q, 'created_at'), id: documents.document_id };
  const { rows, pagination } = await readPage(q, {
    order,
    count: () => cappedCountOf(ctx.db, documents, where),
    rows: (window) =>
      selectDocuments(ctx.db, keyColumns(order))
        .where(pageWhere(where, order, window))
        .orderBy(...orderOf(order.sort, order.order, order.id))
        .limit(window.limit)
        .offset(window.offset),
  });
  return { documents: rows.map(toItem), pagination };
}

/** A linked license must be one of the owner's (400). Returns its number and holder. */
async function assertLicenseOfOwner(tx: Tx, licenseId: number | null | undefined, ownerId: number) {
  if (licenseId === null || licenseId === undefined) return null;
  const [row] = await tx
    .select({ license_id: licenses.license_id, user_id: licenses.user_id, license_number: licenses.license_number })
    .from(licenses)
    .where(eq(licenses.license_id, licenseId));
  if (!row || row.user_id !== ownerId) {
    throw badRequest(DOCUMENT_MESSAGES.licenseOfOwner, [{ path: 'license_id', message: DOCUMENT_MESSAGES.licenseOfOwner }]);
  }
  return row;
}

/** A linked completion must be one of the owner's (400). */
async function assertCompletionOfOwner(tx: Tx, completionId: number | null | undefined, ownerId: number): Promise<void> {
  if (completionId === null || completionId === undefined) return;
  const [row] = await tx.select({ user_id: completions.user_id }).from(completions).where(eq(completions.completion_id, completionId));
  if (!row || row.user_id !== ownerId) {
    throw badRequest(DOCUMENT_MESSAGES.completionOfOwner, [{ path: 'completion_id', message: DOCUMENT_MESSAGES.completionOfOwner }]);
  }
}

/** Tells a license's holder that someone else put a document on it (inside the transaction). */
async function notifyHolder(
  tx: Tx,
  ctx: AuthedContext,
  license: { user_id: number; license_number: string } | null,
  doc: { document_id: number; file_name: string; category: DocumentCategory },
): Promise<void> {
  if (!license || license.user_id === ctx.user.user_id) return;
  await notifyUser(tx, {
    user_id: license.user_id,
    event: 'document_added',
    title: 'Document added to your license',
    body: `${doc.file_name} (${DOCUMENT_CATEGORY_LABELS[doc.category]}) was added to license ${license.license_number}`,
    link: `/documents?open=${doc.document_id}`,
    object_type: 'document',
    object_id: doc.document_id,
  });
}

/** A file already in the store, checked, about to be recorded. */
export interface StoredUpload {
  storage_key: string;
  file_name: string;
  mime_type: string;
  size: number;
  sha256: string;
}

/** Reads a version's bytes from the store (for the OCR reader). */
const readerOf = (db: Db, key: string) => () => db.files.readAll(key);

/** After a CE certificate's version committed: the OCR reader takes it in the background. */
function afterCommit(ctx: AuthedContext, category: DocumentCategory, versionId: number, key: string): void {
  if (category === 'ce_certificate') queueExtraction(ctx.db, versionId, readerOf(ctx.db, key));
}

/**
 * POST /documents: records an uploaded file (already in the store) as a new document of `owner_id` (default
 * the caller). Agent: only itself; Broker: people of its brokerage; Admin: anyone (404 outside scope).
 */
export async function createDocument(ctx: AuthedContext, fields: DocumentUploadFields, file: StoredUpload): Promise<DocumentDetail> {
  const ownerId = fields.owner_id ?? ctx.user.user_id;
  const created = await ctx.db.transaction(async (tx) => {
    if (ownerId !== ctx.user.user_id) await assertPersonInScope(tx, ctx.user, ownerId);
    const license = await assertLicenseOfOwner(tx, fields.license_id, ownerId);
    await assertCompletionOfOwner(tx, fields.completion_id, ownerId);
    const [doc] = await tx
      .insert(documents)
      .values({
        owner_id: ownerId,
        license_id: fields.license_id ?? null,
        completion_id: fields.completion_id ?? null,
        category: fields.category,
        title: file.file_name,
        current_version: 1,
        uploaded_by: ctx.user.user_id,
      })
      .returning();
    const [version] = await tx
      .insert(documentVersions)
      .values({
        document_id: doc!.document_id,
        version: 1,
        ...file,
        uploaded_by: ctx.user.user_id,
        extraction_status: fields.category === 'ce_certificate' ? 'pending' : 'none',
      })
      .returning();
    await audit(tx, ctx.actor, { action: 'create', table: 'documents', id: doc!.document_id, new: { ...doc, version: version } });
    await notifyHolder(tx, ctx, license, { document_id: doc!.document_id, file_name: file.file_name, category: fields.category });
    return { document_id: doc!.document_id, version_id: version!.version_id };
  });
  afterCommit(ctx, fields.category, created.version_id, file.storage_key);
  return getDocument(ctx, created.document_id);
}

/** The stored columns of a document the caller may see, or 404. */
async function storedVisible(ctx: AuthedContext, db: DbOrTx, documentId: number) {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.document_id, documentId), visibleDocumentsCondition(ctx.user)));
  return found(row, 'Document');
}

/** A 404 before the upload is read: the caller may not add versions to a document it cannot see. */
export async function assertDocumentVisible(ctx: AuthedContext, documentId: number): Promise<{ category: DocumentCategory }> {
  const { category } = await storedVisible(ctx, ctx.db, documentId);
  return { category };
}

/** POST /documents/{id}/versions: the file becomes the newest version; older ones stay downloadable. */
export async function addVersion(ctx: AuthedContext, documentId: number, file: StoredUpload): Promise<DocumentDetail> {
  const added = await ctx.db.transaction(async (tx) => {
    const old = await storedVisible(ctx, tx, documentId);
    const next = old.current_version + 1;
    const [version] = await tx
      .insert(documentVersions)
      .values({
        document_id: documentId,
        version: next,
        ...file,
        uploaded_by: ctx.user.user_id,
        extraction_status: old.category === 'ce_certificate' ? 'pending' : 'none',
      })
      .returning();
    await tx
      .update(documents)
      .set({ current_version: next, title: file.file_name, updated_at: new Date().toISOString() })
      .where(eq(documents.document_id, documentId));
    await audit(tx, ctx.actor, {
      action: 'update',
      table: 'documents',
      id: documentId,
      old: { current_version: old.current_version, title: old.title },
      new: { current_version: next, title: file.file_name, version: { ...version } },
    });
    return { version_id: version!.version_id, category: old.category };
  });
  afterCommit(ctx, added.category, added.version_id, file.storage_key);
  return getDocument(ctx, documentId);
}

/** PUT /documents/{id}: category, links and title. Links must stay the owner's (400). */
export async function updateDocument(ctx: AuthedContext, input: UpdateDocumentInput): Promise<DocumentDetail> {
  const { id, ...patch } = input;
  await ctx.db.transaction(async (tx) => {
    const old = await storedVisible(ctx, tx, id);
    // If-Match (REST): the document as GET /documents/{id} answers it, read in this transaction (http/etag.ts).
    await assertIfMatch(ctx, () => getDocument(ctx, id, tx));
    const licenseChanged = patch.license_id !== undefined && patch.license_id !== old.license_id;
    const license = licenseChanged ? await assertLicenseOfOwner(tx, patch.license_id, old.owner_id) : null;
    if (patch.completion_id !== undefined && patch.completion_id !== old.completion_id) {
      await assertCompletionOfOwner(tx, patch.completion_id, old.owner_id);
    }
    const values = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const [row] = Object.keys(values).length
      ? await tx
          .update(documents)
          .set({ ...values, updated_at: new Date().toISOString() })
          .where(eq(documents.document_id, id))
          .returning()
      : [old];
    await audit(tx, ctx.actor, { action: 'update', table: 'documents', id, old, new: row });
    if (license) {
      const [current] = await tx
        .select({ file_name: documentVersions.file_name })
        .from(documentVersions)
        .where(and(eq(documentVersions.document_id, id), eq(documentVersions.version, old.current_version)));
      await notifyHolder(tx, ctx, license, { document_id: id, file_name: current!.file_name, category: row!.category });
    }
  });
  return getDocument(ctx, id);
}

/** DELETE /documents/{id}: soft delete (kept with its files), audited; afterwards 404 everywhere. */
export async function deleteDocument(ctx: AuthedContext, documentId: number): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const old = await storedVisible(ctx, tx, documentId);
    const deletedAt = new Date().toISOString();
    await tx.update(documents).set({ deleted_at: deletedAt, deleted_by: ctx.user.user_id }).where(eq(documents.document_id, documentId));
    await recordDeletion(tx, 'documents', documentId, old.owner_id);
    await audit(tx, ctx.actor, { action: 'delete', table: 'documents', id: documentId, old, new: { deleted_at: deletedAt } });
  });
  return { success: true };
}

/** The file of one version (default the current one) of a document the caller may see, or 404. */
export async function versionFile(
  ctx: AuthedContext,
  documentId: number,
  version?: number,
): Promise<{ storage_key: string; file_name: string; mime_type: string; size: number }> {
  const doc = await storedVisible(ctx, ctx.db, documentId);
  const [row] = await ctx.db
    .select({
      storage_key: documentVersions.storage_key,
      file_name: documentVersions.file_name,
      mime_type: documentVersions.mime_type,
      size: documentVersions.size,
    })
    .from(documentVersions)
    .where(and(eq(documentVersions.document_id, documentId), eq(documentVersions.version, version ?? doc.current_version)));
  if (!row) throw notFound('Version');
  return row;
}

/** The current files of the documents behind a license: linked to it, or to one of its completions. */
export async function certificatesOfLicense(
  ctx: AuthedContext,
  licenseId: number,
): Promise<Array<{ document_id: number; completion_id: number | null; storage_key: string; file_name: string }>> {
  return ctx.db
    .select({
      document_id: documents.document_id,
      completion_id: documents.completion_id,
      storage_key: documentVersions.storage_key,
      file_name: documentVersions.file_name,
    })
    .from(documents)
    .innerJoin(
      documentVersions,
      and(eq(documentVersions.document_id, documents.document_id), eq(documentVersions.version, documents.current_version)),
    )
    .leftJoin(completions, eq(completions.completion_id, documents.completion_id))
    .where(
      and(visibleDocumentsCondition(ctx.user), sql`(${documents.license_id} = ${licenseId} OR ${completions.license_id} = ${licenseId})`),
    )
    .orderBy(asc(documents.document_id));
}

/** At start: every version still waiting to be read goes back to the OCR reader. */
export async function requeuePendingExtractions(db: Db): Promise<number> {
  const rows = await db
    .select({ version_id: documentVersions.version_id, storage_key: documentVersions.storage_key })
    .from(documentVersions)
    .innerJoin(documents, eq(documents.document_id, documentVersions.document_id))
    .where(and(eq(documentVersions.extraction_status, 'pending'), isNull(documents.deleted_at)));
  for (const r of rows) queueExtraction(db, r.version_id, readerOf(db, r.storage_key));
  return rows.length;
}
