/**
 * Certificates read for you (docs/ocr.md, docs/decisions.md "Certificates read for you"): after an upload
 * commits, the documents module calls queueExtraction; the reading runs in a worker thread (reader-thread.ts),
 * one at a time, with a time limit, taken fairly from each uploader's own queue (docs/ocr.md "Queue"), and its
 * result (or error) is written to the version's row. A person always confirms the suggested completion.
 */
import { eq } from 'drizzle-orm';
import { EXTRACTION_MESSAGES, type CertificateExtraction } from '@lm/shared';
import type { Db } from '../../../db/client.ts';
import { documents, documentVersions } from '../../../db/schema/index.ts';
import { AppError } from '../../../base/errors.ts';
import { matchCertificate } from './match.ts';
import { stopOcr } from './ocr.ts';
import { ReaderThread } from './reader-thread.ts';
import { CHECK_TIME_LIMIT_MS, LIMIT_MESSAGES, READ_TIME_LIMIT_MS } from './limits.ts';

export { readCertificate, type CertificateReading } from './reader.ts';
export { bestCourse, matchCertificate, similarity, tokens } from './match.ts';
export { parseCertificate, parseDate } from './parse.ts';
export { LIMIT_MESSAGES, MAX_CERTIFICATE_PAGES, MAX_CERTIFICATE_PIXELS, pdfPageClaim } from './limits.ts';

/** The time limits; tests shorten them. */
export const extractionLimits = {
  /** One reading, in the worker thread. */
  readMs: READ_TIME_LIMIT_MS,
  /** On close, how long the reading in progress may go on before its thread is stopped. */
  shutdownGraceMs: 2_000,
};

/** Readings run here, one at a time; uploads are checked on a thread of their own, so they never wait behind a reading. */
const reader = new ReaderThread();
const checker = new ReaderThread();

/**
 * The check of an uploaded certificate before it is recorded (documents.http.ts): a PDF's page count and an
 * image's pixel count, in a worker thread; throws the 400 naming the limit.
 */
export async function checkCertificateUpload(bytes: Buffer, mime: string): Promise<void> {
  if (!['application/pdf', 'image/png', 'image/jpeg'].includes(mime)) return;
  await checker.run('check', bytes, mime, CHECK_TIME_LIMIT_MS, LIMIT_MESSAGES.checkTimedOut);
}

interface Job {
  db: Db;
  versionId: number;
  read: () => Promise<Buffer>;
}

/**
 * The fair queue: one FIFO per uploader (a lane); the next reading comes from the lane served longest ago (a
 * lane never served first), so one person's twenty uploads delay another's single certificate by at most the
 * reading in progress.
 */
const lanes = new Map<string, Job[]>();
const lastServed = new Map<string, number>();
let served = 0;
let running: Promise<void> | null = null;
/** Readings queued and not yet written (or dropped). */
let queued = 0;
let settledWaiters: (() => void)[] = [];
/** Bumped by stopExtraction: readings queued before it and not yet started are dropped (their rows stay pending). */
let generation = 0;
/** The lane look-ups, in the order readings were queued. */
let admission: Promise<void> = Promise.resolve();
/** Set while stopExtraction ends the thread: the reading it stops leaves its row pending. */
let stopping = false;

function finished(): void {
  queued--;
  if (queued === 0) {
    const waiters = settledWaiters;
    settledWaiters = [];
    for (const w of waiters) w();
  }
}

function nextJob(): Job | null {
  let lane: string | null = null;
  for (const key of lanes.keys()) if (lane === null || (lastServed.get(key) ?? -1) < (lastServed.get(lane) ?? -1)) lane = key;
  if (lane === null) return null;
  const jobs = lanes.get(lane)!;
  const job = jobs.shift()!;
  if (!jobs.length) lanes.delete(lane);
  lastServed.set(lane, ++served);
  return job;
}

function pump(): void {
  if (running) return;
  const job = nextJob();
  if (!job) return;
  running = extract(job.db, job.versionId, job.read)
    .catch((err: unknown) => console.error(`extraction of document version ${job.versionId} failed:`, err))
    .finally(() => {
      running = null;
      finished();
      pump();
    });
}

/** The lane of a version: who uploaded it (else its owner). */
async function laneOf(db: Db, versionId: number): Promise<string> {
  const [row] = await db
    .select({ uploader: documentVersions.uploaded_by, owner: documents.owner_id })
    .from(documentVersions)
    .innerJoin(documents, eq(documents.document_id, documentVersions.document_id))
    .where(eq(documentVersions.version_id, versionId));
  return `user:${row?.uploader ?? row?.owner ?? 0}`;
}

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
    const reading = await reader.run(
      'read',
      await read(),
      row.mime,
      extractionLimits.readMs,
      LIMIT_MESSAGES.timedOut(extractionLimits.readMs),
    );
    if (!reading) throw new AppError('BAD_REQUEST', EXTRACTION_MESSAGES.unreadable);
    const suggestion = await matchCertificate(db, reading.fields, row.owner);
    extraction = { ...reading, suggestion };
  } catch (err) {
    if (stopping) return; // stopped by the server's close: the row stays pending, read again at the next start
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
  // Lanes are looked up at once but taken in the order queued, so each uploader's readings keep their order.
  const lookup = laneOf(db, versionId);
  admission = admission
    .then(() => lookup)
    .then((lane) => {
      if (queuedIn !== generation) return finished();
      const jobs = lanes.get(lane);
      if (jobs) jobs.push({ db, versionId, read });
      else lanes.set(lane, [{ db, versionId, read }]);
      pump();
    })
    .catch((err: unknown) => {
      console.error(`extraction of document version ${versionId} could not be queued:`, err);
      finished();
    });
}

/** Resolves when every reading queued so far has its place in its uploader's queue (tests). */
export async function extractionsAdmitted(): Promise<void> {
  await admission;
}

/** Resolves when every reading queued so far (and any queued meanwhile) has been written. */
export async function extractionsSettled(): Promise<void> {
  while (queued > 0) await new Promise<void>((resolve) => settledWaiters.push(resolve));
}

/**
 * The app's close (and tests' afterAll): drops the readings not started (their versions stay pending, read again
 * at the next start), gives the reading in progress extractionLimits.shutdownGraceMs to finish, then stops the
 * reader's threads (a reading cut short stays pending too). Readings queued afterwards run as usual.
 */
export async function stopExtraction(): Promise<void> {
  generation++;
  for (const jobs of lanes.values()) for (let i = 0; i < jobs.length; i++) finished();
  lanes.clear();
  const current = running;
  if (current) {
    let timer: NodeJS.Timeout | undefined;
    const graceOver = await Promise.race([
      current.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), extractionLimits.shutdownGraceMs))),
    ]);
    clearTimeout(timer);
    if (graceOver) {
      stopping = true;
      await reader.stop();
      await current;
      stopping = false;
    }
  }
  await extractionsSettled();
  await Promise.all([reader.stop(), checker.stop(), stopOcr()]);
}
