/**
 * Certificates read for you (docs/ocr.md, docs/decisions.md "Certificates read for you"): what was read from a
 * document's current version, the Pending completion a person records from it (never approved here), and the
 * certificates a reviewer sees beside a completion.
 */
import { and, eq, isNull } from 'drizzle-orm';
import {
  certificateExtractionSchema,
  EXTRACTION_MESSAGES,
  type certificateCompletionInput,
  type Completion,
  type CompletionCertificate,
  type DocumentExtraction,
} from '@lm/shared';
import type { z } from 'zod';
import { documents, documentVersions } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import type { AuthUser } from '../../core/identity.ts';
import { audit } from '../../core/audit.ts';
import { badRequest, conflict } from '../../base/errors.ts';
import { found } from '../../core/scope.ts';
// The one rule of who sees a document (docs/decisions.md "Documents").
import { visibleDocumentsCondition } from '../documents/documents.service.ts';
import { getVisible as visibleCompletion, recordCompletionIn } from '../completions/completions.service.ts';

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
  return {
    document_id: doc.document_id,
    version: v.version,
    status: v.extraction_status,
    extraction: parseExtraction(v.extraction),
    error: v.extraction_error,
    extracted_at: v.extracted_at,
  };
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
    const doc = await visibleDocument(tx, ctx.user, input.id);
    if (doc.category !== 'ce_certificate') throw badRequest(EXTRACTION_MESSAGES.notCertificate);
    if (doc.completion_id !== null) throw conflict(EXTRACTION_MESSAGES.alreadyLinked);
    const completion = await recordCompletionIn(ctx, tx, {
      course_id: input.course_id,
      license_id: input.license_id ?? null,
      hours: input.hours,
      completion_date: input.completion_date,
      user_id: doc.owner_id,
    });
    const link = { completion_id: completion.completion_id, license_id: doc.license_id ?? completion.license_id };
    await tx.update(documents).set(link).where(eq(documents.document_id, doc.document_id));
    await audit(tx, ctx.actor, {
      action: 'update_link_completion',
      table: 'documents',
      id: doc.document_id,
      old: { completion_id: doc.completion_id, license_id: doc.license_id },
      new: link,
    });
    return completion;
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
    .where(and(eq(documents.completion_id, completionId), isNull(documents.deleted_at)))
    .orderBy(documents.document_id);
}
