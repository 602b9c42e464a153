/**
 * Certificates read for you (docs/ocr.md, docs/decisions.md "Certificates read for you"): after an upload
 * commits, the documents module calls queueExtraction; the reading runs in a worker thread (reader-thread.ts),
 * one at a time, with a time limit, taken fairly from each uploader's own queue (docs/ocr.md "Queue"); the reading is
 * judged against the owner and the active catalogue (judge.ts, docs/ocr.md "Judge") and the result (or error) is
 * written to the version's row. A person always confirms the suggested completion.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { certificateExtractionSchema, EXTRACTION_MESSAGES, type CertificateExtraction } from '@lm/shared';
import type { Db, DbOrTx } from '../../../db/client.ts';
import { courses, documents, documentVersions, licenseCycles, licenses, users } from '../../../db/schema/index.ts';
import { AppError } from '../../../base/errors.ts';
import { today } from '../../../core/dates.ts';
import { cyclesOf } from '../../licenses/ce-ledger.ts';
import { judgeReading, type JudgeContext } from './judge.ts';
import type { CertificateReading } from './reading.ts';
import { stopOcr } from './ocr.ts';
import { ReaderThread } from './reader-thread.ts';
import { CHECK_TIME_LIMIT_MS, LIMIT_MESSAGES, READ_TIME_LIMIT_MS } from './limits.ts';

export { readCertificate } from './reader.ts';
export type { CertificateReading } from './reading.ts';
export { similarity, tokens } from './match.ts';
export { judgeReading, JUDGE_MESSAGES, type JudgeContext } from './judge.ts';
export { parseCertificate, parseDate } from './parse.ts';
export { LIMIT_MESSAGES, MAX_CERTIFICATE_PAGES, MAX_CERTIFICATE_PIXELS, pdfPageClaim } from './limits.ts';

/** The time limits; tests shorten them. */
export const extractionLimits = {
  /** One reading, in the worker thread. */
  readMs: READ_TIME_LIMIT_MS,
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

/**
 * What the judge compares a reading with (docs/ocr.md "Judge"): the owner's name, his licenses with their cycles
 * (the CE ledger's cyclesOf), the active catalogue (only the columns it needs) and the office's date.
 */
export async function judgeContextOf(db: DbOrTx, ownerId: number): Promise<JudgeContext> {
  const [owner] = await db
    .select({ user_id: users.user_id, first_name: users.first_name, last_name: users.last_name })
    .from(users)
    .where(eq(users.user_id, ownerId));
  const owned = await db.select().from(licenses).where(eq(licenses.user_id, ownerId)).orderBy(asc(licenses.license_id));
  const closed = owned.length
    ? await db
        .select()
        .from(licenseCycles)
        .where(
          inArray(
            licenseCycles.license_id,
            owned.map((l) => l.license_id),
          ),
        )
        .orderBy(asc(licenseCycles.start_date), asc(licenseCycles.cycle_id))
    : [];
  const catalogue = await db
    .select({
      course_id: courses.course_id,
      course_name: courses.course_name,
      provider: courses.provider,
      ce_hours: courses.ce_hours,
      school_id: courses.school_id,
      approval_number: courses.approval_number,
      approval_state: courses.approval_state,
    })
    .from(courses)
    .where(eq(courses.is_active, true))
    .orderBy(asc(courses.course_id));
  return {
    today: today(),
    owner: {
      user_id: ownerId,
      first_name: owner?.first_name ?? '',
      last_name: owner?.last_name ?? '',
      licenses: owned.map((l) => ({
        license_id: l.license_id,
        license_number: l.license_number,
        state: l.state,
        license_type: l.license_type,
        status: l.status,
        issue_date: l.issue_date,
        expiration_date: l.expiration_date,
        cycles: cyclesOf(
          l,
          closed.filter((c) => c.license_id === l.license_id),
        ).map(({ start_date, end_date, counts_from }) => ({ start_date, end_date, counts_from })),
      })),
    },
    catalogue,
  };
}

/** The stored extraction: the reading and what the judge made of it against the owner and the catalogue. */
export async function judgeStored(db: DbOrTx, reading: CertificateReading, ownerId: number): Promise<CertificateExtraction> {
  const { kind: _kind, fields: _fields, courses: _courses, ...how } = reading;
  return { ...how, ...judgeReading(reading, await judgeContextOf(db, ownerId)) };
}

async function extract(db: Db, versionId: number, read: () => Promise<Buffer>): Promise<void> {
  const startedIn = generation;
  let extraction: CertificateExtraction | null = null;
  let error: string | null = null;
  try {
    const [row] = await db
      .select({ mime: documentVersions.mime_type, owner: documents.owner_id })
      .from(documentVersions)
      .innerJoin(documents, eq(documents.document_id, documentVersions.document_id))
      .where(eq(documentVersions.version_id, versionId));
    if (!row) return; // deleted meanwhile
    const bytes = await read();
    if (startedIn !== generation) return; // the server is closing: the row stays pending, read again at the next start
    const reading = await reader.run('read', bytes, row.mime, extractionLimits.readMs, LIMIT_MESSAGES.timedOut(extractionLimits.readMs));
    if (!reading) throw new AppError('BAD_REQUEST', EXTRACTION_MESSAGES.unreadable);
    const judged = certificateExtractionSchema.safeParse(await judgeStored(db, reading, row.owner));
    // What is stored always parses (a stored reading that does not is read again when opened, certificates.service.ts).
    if (!judged.success) {
      console.error(`extraction of document version ${versionId}: the judged reading does not fit its schema:`, judged.error.message);
      throw new AppError('BAD_REQUEST', EXTRACTION_MESSAGES.unreadable);
    }
    extraction = judged.data;
  } catch (err) {
    if (startedIn !== generation) return; // stopped by the server's close: the row stays pending, read again at the next start
    if (!(err instanceof AppError)) console.error(`extraction of document version ${versionId} failed:`, err);
    error = err instanceof AppError ? err.message : EXTRACTION_MESSAGES.unreadable;
  }
  if (startedIn !== generation) return;
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
 * The app's close (and tests' afterAll): abandons the reading in progress at once (its thread is stopped) and drops
 * the readings not started; their versions stay pending and are read again at the next start
 * (requeuePendingExtractions). Readings queued afterwards run as usual.
 */
export async function stopExtraction(): Promise<void> {
  generation++;
  for (const jobs of lanes.values()) for (let i = 0; i < jobs.length; i++) finished();
  lanes.clear();
  const current = running;
  await reader.stop();
  if (current) await current;
  await extractionsSettled();
  await Promise.all([reader.stop(), checker.stop(), stopOcr()]);
}
