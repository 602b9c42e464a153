/**
 * A worker thread running reader-worker.ts (docs/ocr.md "Off the event loop"): started on first use, its
 * JavaScript heap bounded (READER_HEAP_MB), every job with a time limit. A job past its limit, or a thread that
 * runs out of memory, ends the thread (terminate()) and its jobs fail with a message for the person; the next
 * job starts a fresh thread; a thread idle for 30 s ends too. The thread never keeps the process alive.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EXTRACTION_MESSAGES } from '@lm/shared';
import { badRequest, type AppError } from '../../../base/errors.ts';
import type { CertificateReading } from './reading.ts';
import { LIMIT_MESSAGES, READER_HEAP_MB } from './limits.ts';

/** The built server (one .mjs bundle per entry, scripts/build.mjs) or the TypeScript source, run through tsx. */
const bundled = import.meta.url.endsWith('.mjs');

/**
 * The thread's entry: the bundle, or a small module that registers tsx's loader in the thread (tsx's documented
 * `tsx/esm/api` register(); a worker does not inherit the loader of a process started by vitest) and imports
 * the TypeScript entry.
 */
function entry(): URL {
  if (bundled) return new URL('./reader-worker.mjs', import.meta.url);
  const require = createRequire(import.meta.url);
  const api = pathToFileURL(path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const script = new URL('./reader-worker.ts', import.meta.url).href;
  const boot = `const { register } = await import(${JSON.stringify(api)}); register(); await import(${JSON.stringify(script)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

interface Pending {
  resolve: (reading: CertificateReading | undefined) => void;
  reject: (err: AppError) => void;
  timer: NodeJS.Timeout;
  worker: Worker;
}

/** A thread idle this long is ended, so the memory of its last job (pdf.js, the OCR's data) goes back to the system. */
const IDLE_MS = 30_000;

export class ReaderThread {
  private worker: Worker | null = null;
  private jobs = new Map<number, Pending>();
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;

  /** Called whenever a job ends: with none left, the thread ends after IDLE_MS. */
  private settle(): void {
    if (this.jobs.size > 0 || !this.worker) return;
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.jobs.size === 0) void this.stop();
    }, IDLE_MS);
    this.idle.unref();
  }

  private start(): Worker {
    const worker = new Worker(entry(), {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB },
    });
    worker.unref();
    worker.on('message', (msg: { id: number; ok: boolean; reading?: CertificateReading; message?: string | null }) => {
      const job = this.jobs.get(msg.id);
      if (!job) return;
      this.jobs.delete(msg.id);
      clearTimeout(job.timer);
      if (msg.ok) job.resolve(msg.reading);
      else job.reject(badRequest(msg.message ?? EXTRACTION_MESSAGES.unreadable));
      this.settle();
    });
    const fail = (message: string) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(worker, message);
    };
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code !== 'ERR_WORKER_OUT_OF_MEMORY') console.error('certificate reader thread failed:', err);
      fail(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? LIMIT_MESSAGES.tooLargeToRead : EXTRACTION_MESSAGES.unreadable);
    });
    worker.on('exit', () => fail(EXTRACTION_MESSAGES.unreadable));
    return worker;
  }

  /** Fails the jobs of a thread that ended (a later thread's jobs go on). */
  private failAll(worker: Worker, message: string): void {
    for (const [id, job] of this.jobs) {
      if (job.worker !== worker) continue;
      this.jobs.delete(id);
      clearTimeout(job.timer);
      job.reject(badRequest(message));
    }
  }

  /** Runs one job; rejects with an AppError (400, a message for the person) when it fails or takes too long. */
  run(
    kind: 'check' | 'read',
    bytes: Buffer,
    mime: string,
    timeoutMs: number,
    timeoutMessage: string,
  ): Promise<CertificateReading | undefined> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker ??= this.start();
    const worker = this.worker;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // The job is stopped with the thread: pdf.js or the OCR cannot be interrupted otherwise.
        this.jobs.delete(id);
        reject(badRequest(timeoutMessage));
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
      }, timeoutMs);
      this.jobs.set(id, { resolve, reject, timer, worker });
      // A copy the thread owns (the caller's buffer may be a slice of a pooled one).
      const copy = new Uint8Array(bytes);
      worker.postMessage({ id, kind, bytes: copy, mime }, [copy.buffer]);
    });
  }

  /** Ends the thread; jobs in flight fail. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
