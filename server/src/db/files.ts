/**
 * The file store (docs/architecture.md "Stored files"): the bytes of uploaded documents, by storage key.
 * Only the data layer knows where they live:
 *   SQLite      files under $DATA_DIR/documents/<key>, written to a temporary name, fsynced, then renamed;
 *   PostgreSQL  rows of stored_file_chunks (at most 256 KiB each), written in one transaction, so every
 *               instance sharing the database sees the same files; read back chunk by chunk.
 * Nothing is ever held whole in memory except through readAll() (small files: OCR, audit packs).
 * Keys are chosen by the caller (fresh random ones) and must match KEY_PATTERN.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { AppError, notFound } from '../base/errors.ts';
import { assertDiskWritable, translateDbError } from './errors.ts';

/** What a key may look like: no separators or dots, so it can never leave the store's folder. */
export const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;
/** Largest chunk row on PostgreSQL. */
export const CHUNK_BYTES = 256 * 1024;

export interface PutOptions {
  /** The largest size accepted: the write stops and throws 413 at the first byte over it. */
  maxBytes: number;
  /** The 413 message (default: a generic one). */
  tooLargeMessage?: string;
}

export interface StoredFile {
  size: number;
  sha256: string;
}

export interface FileStore {
  /** Streams `source` into the store under `key` (replacing nothing: a key is written once). */
  put(key: string, source: NodeJS.ReadableStream, options: PutOptions): Promise<StoredFile>;
  /** The bytes of `key` as a stream; 404 when the store has no such file. */
  openRead(key: string): Promise<Readable>;
  /** Removes a file; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** True when the store holds `key`. */
  has(key: string): Promise<boolean>;
  /** A small file whole (OCR, archives of certificates). */
  readAll(key: string): Promise<Buffer>;
}

/** A fresh random storage key. */
export function newStorageKey(): string {
  return crypto.randomBytes(18).toString('base64url');
}

function checkKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new AppError('INTERNAL_SERVER_ERROR', 'Invalid storage key');
}

/** Counts and hashes the bytes going through, failing with 413 at the first byte over `max`. */
function meter(options: PutOptions) {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > options.maxBytes) {
        cb(new AppError('PAYLOAD_TOO_LARGE', options.tooLargeMessage ?? 'The file is larger than the upload limit'));
        return;
      }
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  return { stream, result: (): StoredFile => ({ size, sha256: hash.digest('hex') }) };
}

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** The SQLite engine's store: one file per key under `dir` ($DATA_DIR/documents). */
export function diskFileStore(dir: string): FileStore {
  const fileOf = (key: string) => {
    checkKey(key);
    return path.join(dir, key);
  };
  const store: FileStore = {
    async put(key, source, options) {
      const target = fileOf(key);
      assertDiskWritable();
      fs.mkdirSync(dir, { recursive: true });
      const partial = path.join(dir, `.${key}.${crypto.randomBytes(4).toString('hex')}.partial`);
      const m = meter(options);
      try {
        await pipeline(source, m.stream, fs.createWriteStream(partial, { flags: 'wx' }));
        const fd = fs.openSync(partial, 'r+');
        try {
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(partial, target);
      } catch (err) {
        fs.rmSync(partial, { force: true });
        // A full disk (ENOSPC) is a 507 with a message, not the client's fault (docs/security.md "Faults").
        throw translateDbError(err);
      }
      return m.result();
    },
    async openRead(key) {
      const file = fileOf(key);
      if (!fs.existsSync(file)) throw notFound('File');
      return fs.createReadStream(file);
    },
    async remove(key) {
      fs.rmSync(fileOf(key), { force: true });
    },
    async has(key) {
      return fs.existsSync(fileOf(key));
    },
    async readAll(key) {
      return collect(await store.openRead(key));
    },
  };
  return store;
}

/** The PostgreSQL engine's store: chunks in stored_file_chunks, shared by every instance. */
export function pgFileStore(pool: pg.Pool): FileStore {
  const store: FileStore = {
    async put(key, source, options) {
      checkKey(key);
      const m = meter(options);
      const client = await pool.connect();
      let pending: Buffer = Buffer.alloc(0);
      let seq = 0;
      const flush = async (all: boolean) => {
        while (pending.length >= CHUNK_BYTES || (all && (pending.length > 0 || seq === 0))) {
          const part = pending.subarray(0, CHUNK_BYTES);
          pending = pending.subarray(part.length);
          await client.query('INSERT INTO stored_file_chunks (storage_key, seq, data) VALUES ($1, $2, $3)', [key, seq++, part]);
        }
      };
      try {
        await client.query('BEGIN');
        // The stream is metered as it is read, so nothing beyond the limit is inserted.
        await pipeline(source, m.stream, async (metered: AsyncIterable<Buffer>) => {
          for await (const chunk of metered) {
            pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
            await flush(false);
          }
        });
        await flush(true);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw translateDbError(err);
      } finally {
        client.release();
      }
      return m.result();
    },
    async openRead(key) {
      checkKey(key);
      if (!(await store.has(key))) throw notFound('File');
      async function* chunks() {
        for (let seq = 0; ; seq++) {
          const { rows } = await pool.query<{ data: Buffer }>('SELECT data FROM stored_file_chunks WHERE storage_key = $1 AND seq = $2', [
            key,
            seq,
          ]);
          if (!rows[0]) return;
          if (rows[0].data.length) yield rows[0].data;
        }
      }
      return Readable.from(chunks());
    },
    async remove(key) {
      checkKey(key);
      await pool.query('DELETE FROM stored_file_chunks WHERE storage_key = $1', [key]);
    },
    async has(key) {
      checkKey(key);
      const { rows } = await pool.query('SELECT 1 FROM stored_file_chunks WHERE storage_key = $1 AND seq = 0', [key]);
      return rows.length > 0;
    },
    async readAll(key) {
      return collect(await store.openRead(key));
    },
  };
  return store;
}
