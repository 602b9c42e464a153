/**
 * The reader's worker thread (docs/ocr.md "Off the event loop"): checks and reads certificates, so pdf.js, sharp
 * and the OCR never hold the server's event loop. Messages: {id, kind: 'check' | 'read', bytes, mime}; answers
 * {id, ok: true, reading?} or {id, ok: false, message} (message: an AppError's text for the person, else null).
 * reader.ts (pdf.js, tesseract) is loaded on the first reading only, so a checking thread starts fast.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { AppError } from '../../../base/errors.ts';
import { checkCertificate } from './limits.ts';

// The reading threads yield the CPU to the event loop's thread: on Linux a thread's nice value is its own, and the
// threads it starts (tesseract's worker, libvips's) inherit it. Best effort: elsewhere nothing changes.
try {
  const tid = Number(/task\/(\d+)/.exec(fs.readlinkSync('/proc/thread-self'))?.[1]);
  if (tid) os.setPriority(tid, 10);
} catch {
  // no /proc (not Linux): the thread keeps the process's priority
}

// libvips keeps no decoded images between readings and uses one thread: the memory bound of docs/ocr.md.
sharp.cache(false);
sharp.concurrency(1);

interface Job {
  id: number;
  kind: 'check' | 'read';
  bytes: Uint8Array;
  mime: string;
}

parentPort?.on('message', (job: Job) => {
  void (async () => {
    try {
      const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
      if (job.kind === 'check') {
        await checkCertificate(bytes, job.mime);
        parentPort?.postMessage({ id: job.id, ok: true });
      } else {
        const { readCertificate } = await import('./reader.ts');
        parentPort?.postMessage({ id: job.id, ok: true, reading: await readCertificate(bytes, job.mime) });
      }
    } catch (err) {
      if (!(err instanceof AppError)) console.error(`certificate ${job.kind} failed:`, err);
      parentPort?.postMessage({ id: job.id, ok: false, message: err instanceof AppError ? err.message : null });
    }
  })();
});
