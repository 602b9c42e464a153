/**
 * The backup file: a zip holding database.sqlite (an online snapshot), manifest.json (schema version,
 * row counts, checksum) and, when asked, the stored files under files/. Writing and reading only;
 * what a backup means lives in backups.snapshot.ts and backups.service.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import yazl from 'yazl';
import yauzl from 'yauzl';
import { z } from 'zod';
import { AppError, badRequest } from '../../base/errors.ts';

export const DATABASE_ENTRY = 'database.sqlite';
export const MANIFEST_ENTRY = 'manifest.json';
export const FILES_PREFIX = 'files/';
export const MANIFEST_FORMAT = 1;
export const MANIFEST_APP = 'License Manager';
/**
 * Folders of $DATA_DIR copied into a backup with include_files. Documents are not among them: their files are
 * read through the file store (db/files.ts), so a backup on PostgreSQL carries them too, as files/documents/<key>.
 */
export const FILE_FOLDERS = ['outbox'] as const;
/** Zip folder of the stored documents' files. */
export const DOCUMENTS_PREFIX = `${FILES_PREFIX}documents/`;
/** The folders under files/ a backup may hold; any other entry name makes the zip something else. */
const FILE_ENTRY_PREFIXES = [...FILE_FOLDERS.map((f) => `${FILES_PREFIX}${f}/`), DOCUMENTS_PREFIX];

/** A stored file going into a backup: read when the zip reaches it. */
export interface StoredEntry {
  rel: string;
  open: () => Promise<NodeJS.ReadableStream>;
}

/** A snapshot larger than this is refused on extraction (a zip bomb must not fill the disk). */
const MAX_DATABASE_BYTES = 16 * 1024 ** 3;
/**
 * An uploaded backup, all its entries together, may inflate to at most this many times the upload limit
 * (docs/security.md "Backup uploads"). A License Manager snapshot deflates 3-8 times (text, dates and ids
 * compress well; argon2 hashes, tokens and free pages do not) and stored files hardly at all; 20 leaves room
 * for a nearly empty database while a zip bomb (deflate reaches about 1000:1) is stopped after
 * 20 x max_file_size_mb, however many entries it holds.
 */
export const UPLOAD_INFLATION_RATIO = 20;
const MAX_MANIFEST_BYTES = 4 * 1024 ** 2;

export const schemaVersionSchema = z.object({
  /** Tag of the newest applied migration (drizzle/meta/_journal.json), when known. */
  tag: z.string().nullable(),
  /** Hash of the newest applied migration (__drizzle_migrations). */
  hash: z.string(),
  migrations: z.number().int(),
});
export type SchemaVersion = z.infer<typeof schemaVersionSchema>;

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  app: z.literal(MANIFEST_APP),
  app_version: z.string(),
  backup_id: z.number().int(),
  description: z.string(),
  type: z.string(),
  created_at: z.string(),
  schema_version: schemaVersionSchema,
  database: z.object({
    file: z.literal(DATABASE_ENTRY),
    size: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  row_counts: z.record(z.string(), z.number().int().nonnegative()),
  include_files: z.boolean(),
  files: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative() })),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const NOT_A_BACKUP = 'This file is not a License Manager backup';
const TOO_LARGE = 'The database in this backup is too large to restore';
export const ARCHIVE_TOO_LARGE = `This backup unpacks to more than an uploaded backup may (${UPLOAD_INFLATION_RATIO} times the maximum file size)`;

/** An entry name as a message may show it: printable ASCII kept, anything else escaped, at most 80 characters. */
function shownName(name: string): string {
  const escaped = name.replace(/[^\x20-\x7E]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`);
  return escaped.length > 80 ? `${escaped.slice(0, 77)}...` : escaped;
}
export const duplicateEntry = (name: string) =>
  `This backup is damaged: it holds "${shownName(name)}" more than once (a backup holds each entry once)`;
export const unexpectedEntry = (name: string) =>
  `${NOT_A_BACKUP}: it holds "${shownName(name)}" (a backup holds manifest.json, database.sqlite and files/ only)`;

/** manifest.json, database.sqlite, or something under files/outbox/ or files/documents/ (folders included). */
function expectedEntry(name: string): boolean {
  if (name === MANIFEST_ENTRY || name === DATABASE_ENTRY || name === FILES_PREFIX) return true;
  return FILE_ENTRY_PREFIXES.some((prefix) => name.startsWith(prefix));
}

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Opens a file and flushes it to disk (data written just before a rename must survive a power cut). */
export function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Regular files under $DATA_DIR/<folder> for each folder, as [absolute path, zip path]. Symlinks are skipped. */
export function collectDataFiles(dataDir: string): Array<{ abs: string; rel: string; size: number }> {
  const out: Array<{ abs: string; rel: string; size: number }> = [];
  const walk = (dir: string, rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a folder that does not exist has nothing to back up
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = path.join(dir, e.name);
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(abs, r);
      else if (e.isFile()) out.push({ abs, rel: r, size: fs.statSync(abs).size });
    }
  };
  for (const folder of FILE_FOLDERS) walk(path.join(dataDir, folder), folder);
  return out;
}

/** Writes the zip to `target` through a temporary name, fsyncs it, then renames it into place. */
export async function writeBackupZip(
  target: string,
  parts: { databaseFile: string; manifest: Manifest; files: Array<{ abs: string; rel: string }>; stored?: StoredEntry[] },
): Promise<number> {
  const partial = `${target}.partial`;
  const zip = new yazl.ZipFile();
  zip.addFile(parts.databaseFile, DATABASE_ENTRY);
  zip.addBuffer(Buffer.from(JSON.stringify(parts.manifest, null, 2)), MANIFEST_ENTRY);
  for (const f of parts.files) zip.addFile(f.abs, `${FILES_PREFIX}${f.rel}`);
  for (const f of parts.stored ?? []) {
    zip.addReadStreamLazy(`${FILES_PREFIX}${f.rel}`, (cb) => {
      f.open().then(
        (stream) => cb(null, stream),
        (err: unknown) => cb(err, undefined as never),
      );
    });
  }
  zip.end();
  try {
    await pipeline(zip.outputStream, fs.createWriteStream(partial));
    fsyncFile(partial);
    fs.renameSync(partial, target);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  return fs.statSync(target).size;
}

function openZip(file: string, notZip: string = NOT_A_BACKUP): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true }, (err, zip) =>
      err || !zip ? reject(badRequest(notZip)) : resolve(zip),
    );
  });
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry, notZip: string = NOT_A_BACKUP): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(badRequest(notZip)) : resolve(stream)));
  });
}

/**
 * Caps a stream at `max` bytes: a zip whose entry grows beyond what it may hold is refused at the
 * first chunk over the limit, before that chunk is written.
 */
function capped(max: number, message: string) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > max) cb(badRequest(message));
      else cb(null, chunk);
    },
  });
}

export interface ExtractedBackup {
  manifest: Manifest;
  /** sha256 of the extracted database file. */
  sha256: string;
  size: number;
}

/** The next entry of a lazily read zip, or null at its end. */
function nextEntry(zip: yauzl.ZipFile, notZip: string = NOT_A_BACKUP): Promise<yauzl.Entry | null> {
  return new Promise<yauzl.Entry | null>((resolve, reject) => {
    const onEntry = (e: yauzl.Entry) => {
      cleanup();
      resolve(e);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = () => {
      cleanup();
      reject(badRequest(notZip));
    };
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
  });
}

/**
 * The central directory alone, before a byte is inflated: every name expected and present once, and the
 * declared sizes together within `maxInflated`.
 */
async function checkEntries(zipFile: string, maxInflated: number): Promise<void> {
  const zip = await openZip(zipFile);
  const names = new Set<string>();
  let declared = 0;
  try {
    zip.readEntry();
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (names.has(entry.fileName)) throw badRequest(duplicateEntry(entry.fileName));
      names.add(entry.fileName);
      if (!expectedEntry(entry.fileName)) throw badRequest(unexpectedEntry(entry.fileName));
      declared += entry.uncompressedSize;
      if (declared > maxInflated) throw badRequest(ARCHIVE_TOO_LARGE);
      zip.readEntry();
    }
  } finally {
    zip.close();
  }
}

/**
 * The zip-bomb guard for any other uploaded zip (an import's XLSX workbook): the declared sizes of its entries
 * together within `maxInflated` before a byte is inflated, then every entry inflated and counted (nothing
 * written; yauzl stops an entry at its declared size, the count the whole at `maxInflated`). Throws 400 `notZip`
 * for a damaged zip and 413 `tooLarge` over the limit.
 */
export async function checkZipInflation(
  zipFile: string,
  maxInflated: number,
  messages: { notZip: string; tooLarge: string },
): Promise<void> {
  const zip = await openZip(zipFile, messages.notZip);
  let declared = 0;
  let inflated = 0;
  try {
    zip.readEntry();
    for (let entry = await nextEntry(zip, messages.notZip); entry; entry = await nextEntry(zip, messages.notZip)) {
      declared += entry.uncompressedSize;
      if (declared > maxInflated) throw new AppError('PAYLOAD_TOO_LARGE', messages.tooLarge);
      if (!entry.fileName.endsWith('/')) {
        const stream = await entryStream(zip, entry, messages.notZip);
        try {
          for await (const chunk of stream) {
            inflated += (chunk as Buffer).length;
            if (inflated > maxInflated) throw new AppError('PAYLOAD_TOO_LARGE', messages.tooLarge);
          }
        } catch (err) {
          (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
          throw err instanceof AppError ? err : badRequest(messages.notZip);
        }
      }
      zip.readEntry();
    }
  } finally {
    zip.close();
  }
}

/**
 * Reads manifest.json and extracts database.sqlite to `databaseTarget`, hashing it on the way.
 * Nothing else in the zip is written anywhere (entry names are never used as paths).
 * Throws 400 for anything that is not a complete License Manager backup. Before anything is inflated
 * (checkEntries): an entry name other than manifest.json, database.sqlite and files/outbox/...,
 * files/documents/...; any name twice; declared sizes over `maxInflatedBytes` together.
 * `maxInflatedBytes` (uploads) bounds the whole archive: the declared sizes of all entries together, and
 * the bytes actually inflated (manifest and database; yauzl's validateEntrySizes stops an entry at its
 * declared size, so the document files a restore inflates later stay within the declared sum too).
 */
export async function extractBackup(
  zipFile: string,
  databaseTarget: string,
  options: { maxInflatedBytes?: number } = {},
): Promise<ExtractedBackup> {
  const maxDatabase = Math.min(options.maxInflatedBytes ?? MAX_DATABASE_BYTES, MAX_DATABASE_BYTES);
  const maxInflated = options.maxInflatedBytes ?? Number.POSITIVE_INFINITY;
  await checkEntries(zipFile, maxInflated);
  const zip = await openZip(zipFile);
  let manifestText: string | null = null;
  let extracted: { sha256: string; size: number } | null = null;
  /** Bytes inflated so far (manifest and database). */
  let inflated = 0;
  try {
    zip.readEntry();
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) break;
      if (entry.fileName === MANIFEST_ENTRY) {
        if (entry.uncompressedSize > MAX_MANIFEST_BYTES) throw badRequest(NOT_A_BACKUP);
        const chunks: Buffer[] = [];
        let seen = 0;
        const stream = await entryStream(zip, entry);
        try {
          for await (const chunk of stream) {
            seen += (chunk as Buffer).length;
            if (seen > Math.min(entry.uncompressedSize, MAX_MANIFEST_BYTES)) throw badRequest(NOT_A_BACKUP);
            if (inflated + seen > maxInflated) throw badRequest(ARCHIVE_TOO_LARGE);
            chunks.push(chunk as Buffer);
          }
        } catch (err) {
          // yauzl's own refusal (more bytes than the header declares, a broken deflate stream) is a bad file too.
          throw err instanceof AppError ? err : badRequest(NOT_A_BACKUP);
        }
        inflated += seen;
        manifestText = Buffer.concat(chunks).toString('utf8');
      } else if (entry.fileName === DATABASE_ENTRY) {
        // Refused before inflating when its declared size is over the limit; and, whatever the header
        // says, inflation stops at the first byte over min(declared size, limit, what the archive has left).
        if (entry.uncompressedSize > maxDatabase) throw badRequest(TOO_LARGE);
        const left = maxInflated - inflated;
        const hash = crypto.createHash('sha256');
        const hasher = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            hash.update(chunk);
            cb(null, chunk);
          },
        });
        const stream = await entryStream(zip, entry);
        const out = fs.createWriteStream(databaseTarget, { flags: 'w' });
        try {
          const cap = Math.min(entry.uncompressedSize, maxDatabase, left);
          await pipeline(stream, capped(cap, cap === left ? ARCHIVE_TOO_LARGE : TOO_LARGE), hasher, out);
        } catch (err) {
          throw err instanceof AppError ? err : badRequest(NOT_A_BACKUP);
        }
        fsyncFile(databaseTarget);
        extracted = { sha256: hash.digest('hex'), size: fs.statSync(databaseTarget).size };
        inflated += extracted.size;
      }
      zip.readEntry();
    }
  } finally {
    zip.close();
  }
  if (manifestText === null || extracted === null) throw badRequest(NOT_A_BACKUP);
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(manifestText));
  } catch {
    throw badRequest(NOT_A_BACKUP);
  }
  return { manifest, ...extracted };
}

/**
 * Calls `take` for every entry under files/documents/ of a backup zip whose name (the storage key) is in
 * `wanted`, with a stream of its bytes, one entry at a time. Entry names are never used as paths.
 */
export async function eachDocumentFile(
  zipFile: string,
  wanted: Set<string>,
  take: (key: string, stream: NodeJS.ReadableStream) => Promise<void>,
): Promise<void> {
  const zip = await openZip(zipFile);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', () => reject(badRequest(NOT_A_BACKUP)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const key = entry.fileName.startsWith(DOCUMENTS_PREFIX) ? entry.fileName.slice(DOCUMENTS_PREFIX.length) : '';
        if (!wanted.has(key)) {
          zip.readEntry();
          return;
        }
        entryStream(zip, entry)
          .then((stream) => take(key, stream))
          .then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}
