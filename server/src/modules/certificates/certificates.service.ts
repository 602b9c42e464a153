/**
 * Certificates read for you (docs/ocr.md, docs/decisions.md "Certificates read for you"): what was read from a
 * document's current version, the Pending completion a person records from it (never approved here), and the
 * certificates a reviewer sees beside a completion.
 */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  certificateExtractionSchema,
  EXTRACTION_MESSAGES,
  type certificateCompletionInput,
  type certificateCompletionsInput,
  type Completion,
  type CompletionCertificate,
  type DocumentExtraction,
} from '@lm/shared';
import type { z } from 'zod';
import { certificateCompletions, documents, documentVersions } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import type { AuthUser } from '../../core/identity.ts';
import { audit } from '../../core/audit.ts';
import { AppError, badRequest, conflict } from '../../base/errors.ts';
import { found } from '../../core/scope.ts';
// The one rule of who sees a document (docs/decisions.md "Documents").
import { visibleDocumentsCondition } from '../documents/documents.service.ts';
import { getVisible as visibleCompletion, recordCompletionIn } from '../completions/completions.service.ts';
import { queueExtraction } from '../documents/extraction/index.ts';

async function visibleDocument(db: DbOrTx, actor: AuthUser, id: number) {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.document_id, id), visibleDocumentsCondition(actor)));
  return found(row, 'Document');
}

/** A stored reading, or null when it is missing or no longer has the shape this version expects. */
function parseExtraction(json: string | null) {
  if (!json) return null;
  try {
    const parsed = certificateExtractionSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** GET /documents/{id}/extraction: the current version's reading (status, fields, suggestion, error). */
export async function getExtraction(ctx: AuthedContext, id: number): Promise<DocumentExtraction> {
  const doc = await visibleDocument(ctx.db, ctx.user, id);
  const [version] = await ctx.db
    .select()
    .from(documentVersions)
    .where(and(eq(documentVersions.document_id, doc.document_id), eq(documentVersions.version, doc.current_version)));
  const v = found(version, 'Document');
  const extraction = parseExtraction(v.extraction);
  if (v.extraction_status === 'done' && extraction === null && (await rereadStale(ctx, v.version_id, v.storage_key))) {
    return { document_id: doc.document_id, version: v.version, status: 'pending', extraction: null, error: null, extracted_at: null };
  }
  return {
    document_id: doc.document_id,
    version: v.version,
    status: v.extraction_status,
    extraction,
    error: v.extraction_error,
    extracted_at: v.extracted_at,
  };
}

/**
 * A reading stored before the judge (docs/ocr.md "Judge") no longer has the shape of certificateExtractionSchema:
 * the first time someone opens it, it goes back to pending and is read again through the fair queue (one reading
 * per document opened, never a sweep of every old version). True when this call queued it.
 */
async function rereadStale(ctx: AuthedContext, versionId: number, storageKey: string): Promise<boolean> {
  const marked = await ctx.db.transaction((tx) =>
    tx
      .update(documentVersions)
      .set({ extraction_status: 'pending', extraction: null, extraction_error: null, extracted_at: null })
      .where(and(eq(documentVersions.version_id, versionId), eq(documentVersions.extraction_status, 'done')))
      .returning({ version_id: documentVersions.version_id }),
  );
  if (!marked.length) return false;
  queueExtraction(ctx.db, versionId, () => ctx.db.files.readAll(storageKey));
  return true;
}

/**
 * The certificate a person records from: visible, a CE certificate, and not yet linked to a completion (neither
 * `documents.completion_id` nor a row of certificate_completions), else 400/404/409.
 */
async function unlinkedCertificate(ctx: AuthedContext, tx: Tx, id: number) {
  const doc = await visibleDocument(tx, ctx.user, id);
  if (doc.category !== 'ce_certificate') throw badRequest(EXTRACTION_MESSAGES.notCertificate);
  const [linked] = await tx
    .select({ id: certificateCompletions.completion_id })
    .from(certificateCompletions)
    .where(eq(certificateCompletions.document_id, doc.document_id))
    .limit(1);
  if (doc.completion_id !== null || linked) throw conflict(EXTRACTION_MESSAGES.alreadyLinked);
  return doc;
}

/**
 * Links a certificate to the completions recorded from it (docs/decisions.md "One certificate, several
 * completions"): a certificate_completions row for each, and `documents.completion_id` (the first, for the screens
 * that show one) with `license_id` when it had none, audited as `update_link_completion` on documents.
 */
async function linkCertificate(ctx: AuthedContext, tx: Tx, doc: typeof documents.$inferSelect, recorded: Completion[]): Promise<void> {
  await tx.insert(certificateCompletions).values(recorded.map((c) => ({ document_id: doc.document_id, completion_id: c.completion_id })));
  const first = recorded[0]!;
  const link = { completion_id: first.completion_id, license_id: doc.license_id ?? first.license_id };
  await tx.update(documents).set(link).where(eq(documents.document_id, doc.document_id));
  await audit(tx, ctx.actor, {
    action: 'update_link_completion',
    table: 'documents',
    id: doc.document_id,
    old: { completion_id: doc.completion_id, license_id: doc.license_id },
    new: recorded.length > 1 ? { ...link, completion_ids: recorded.map((c) => c.completion_id) } : link,
  });
}

/**
 * POST /documents/{id}/completion: a Pending completion for the document's owner from the values the person
 * confirmed, through the completions module's own rules (recordCompletionIn), and the document linked to it
 * (and to the license, when it had none), in one transaction. Nothing is approved: a reviewer still decides.
 */
export async function recordFromCertificate(
  ctx: AuthedContext,
  input: z.output<typeof certificateCompletionInput> & { id: number },
): Promise<Completion> {
  return ctx.db.transaction(async (tx) => {
    const doc = await unlinkedCertificate(ctx, tx, input.id);
    const completion = await recordCompletionIn(ctx, tx, {
      course_id: input.course_id,
      license_id: input.license_id ?? null,
      hours: input.hours,
      completion_date: input.completion_date,
      user_id: doc.owner_id,
    });
    await linkCertificate(ctx, tx, doc, [completion]);
    return completion;
  });
}

/**
 * POST /documents/{id}/completions: a transcript's courses recorded together. Every entry is a Pending completion
 * for the document's owner through recordCompletionIn (the same validation, cycle and repeat-credit rules), all in
 * one transaction with their audit entries and the links; an entry refused answers its 4xx naming the entry
 * ("Entry 2: ...", the field paths under entries.1) and nothing is written.
 */
export async function recordAllFromCertificate(
  ctx: AuthedContext,
  input: z.output<typeof certificateCompletionsInput> & { id: number },
): Promise<Completion[]> {
  return ctx.db.transaction(async (tx) => {
    const doc = await unlinkedCertificate(ctx, tx, input.id);
    const recorded: Completion[] = [];
    for (const [i, entry] of input.entries.entries()) {
      try {
        recorded.push(
          await recordCompletionIn(ctx, tx, {
            course_id: entry.course_id,
            license_id: entry.license_id ?? null,
            hours: entry.hours,
            completion_date: entry.completion_date,
            user_id: doc.owner_id,
          }),
        );
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const issues = err.issues?.map((d) => ({ ...d, path: `entries.${i}.${d.path}` }));
        throw new AppError(err.appCode, EXTRACTION_MESSAGES.entryRefused(i + 1, err.message), { issues });
      }
    }
    await linkCertificate(ctx, tx, doc, recorded);
    return recorded;
  });
}

/** GET /completions/{id}/certificates: the documents linked to a completion the caller may see. */
export async function certificatesOf(ctx: AuthedContext, completionId: number): Promise<CompletionCertificate[]> {
  found(await visibleCompletion(ctx.db, ctx.user, completionId), 'Completion');
  return ctx.db
    .select({
      document_id: documents.document_id,
      title: documents.title,
      category: documents.category,
      current_version: documents.current_version,
      mime_type: documentVersions.mime_type,
      file_name: documentVersions.file_name,
    })
    .from(documents)
    .leftJoin(
      documentVersions,
      and(eq(documentVersions.document_id, documents.document_id), eq(documentVersions.version, documents.current_version)),
    )
    .where(
      and(
        or(
          eq(documents.completion_id, completionId),
          inArray(
            documents.document_id,
            sql`(SELECT ${certificateCompletions.document_id} FROM ${certificateCompletions} WHERE ${certificateCompletions.completion_id} = ${completionId})`,
          ),
        ),
        isNull(documents.deleted_at),
      ),
    )
    .orderBy(documents.document_id);
}
