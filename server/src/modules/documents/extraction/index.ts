/**
 * Certificates read for you (docs/ocr.md, docs/decisions.md "Certificates read for you"): after an upload
 * commits, the documents module calls queueExtraction; the reading runs in the background, one at a time, and
 * its result (or error) is written to the version's row. A person always confirms the suggested completion.
 */
import { eq } from 'drizzle-orm';
import { EXTRACTION_MESSAGES, type CertificateExtraction } from '@lm/shared';
import type { Db } from '../../../db/client.ts';
import { documents, documentVersions } from '../../../db/schema/index.ts';
import { AppError } from '../../../base/errors.ts';
import { readCertificate } from './reader.ts';
import { matchCertificate } from './match.ts';
import { stopOcr } from './ocr.ts';

export { readCertificate, type CertificateReading } from './reader.ts';
export { bestCourse, matchCertificate, similarity, tokens } from './match.ts';
export { parseCertificate, parseDate } from './parse.ts';

/** The queue: each reading starts when the previous one has finished (concurrency 1). */
let tail: Promise<void> = Promise.resolve();
let queued = 0;
/** Bumped by stopExtraction: readings queued before it and not yet started are dropped (their rows stay pending). */
let generation = 0;

async function extract(db: Db, versionId: number, read: () => Promise<Buffer>): Promise<void> {
  let extraction: CertificateExtraction | null = null;
  let error: string | null = null;
  try {
    const [row] = await db
      .select({ mime: documentVersions.mime_type, owner: documents.owner_id })
      .from(documentVersions)
      .innerJoin(documents, eq(documents.document_id, documentVersions.document_id))
      .where(eq(documentVersions.version_id, versionId));
    if (!row) return; // deleted meanwhile
    const reading = await readCertificate(await read(), row.mime);
    const suggestion = await matchCertificate(db, reading.fields, row.owner);
    extraction = { ...reading, suggestion };
  } catch (err) {
    if (!(err instanceof AppError)) console.error(`extraction of document version ${versionId} failed:`, err);
    error = err instanceof AppError ? err.message : EXTRACTION_MESSAGES.unreadable;
  }
  await db.transaction(async (tx) => {
    await tx
      .update(documentVersions)
      .set({
        extraction_status: extraction ? 'done' : 'failed',
        extraction: extraction ? JSON.stringify(extraction) : null,
        extraction_error: error,
        extracted_at: new Date().toISOString(),
      })
      .where(eq(documentVersions.version_id, versionId));
  });
}

/** Reads the version's file in the background and writes the result to its row. Never throws. */
export function queueExtraction(db: Db, versionId: number, read: () => Promise<Buffer>): void {
  queued++;
  const queuedIn = generation;
  tail = tail
    .then(() => (queuedIn === generation ? extract(db, versionId, read) : undefined))
    .catch((err: unknown) => console.error(`extraction of document version ${versionId} failed:`, err))
    .finally(() => {
      queued--;
    });
}

/** Resolves when every reading queued so far (and any queued meanwhile) has been written. */
export async function extractionsSettled(): Promise<void> {
  while (queued > 0) await tail;
}

/**
 * The app's close (and tests' afterAll): lets the reading in progress finish, drops those not started (their
 * versions stay pending), then terminates the OCR worker. Readings queued afterwards run as usual.
 */
export async function stopExtraction(): Promise<void> {
  generation++;
  await extractionsSettled();
  await stopOcr();
}
