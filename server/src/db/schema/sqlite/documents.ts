import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { DOCUMENT_CATEGORIES, EXTRACTION_STATUSES } from '@lm/shared';
import { users } from './users.ts';
import { licenses } from './licenses.ts';
import { completions } from './courses.ts';
import { createdAt, updatedAt } from './columns.ts';

/** A document: one owner, an optional license or completion, a category and one or more versions. */
export const documents = sqliteTable(
  'documents',
  {
    document_id: integer('document_id').primaryKey({ autoIncrement: true }),
    /** The person the document belongs to (scopes follow the owner, docs/decisions.md "Documents"). */
    owner_id: integer('owner_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    license_id: integer('license_id').references(() => licenses.license_id, { onDelete: 'set null' }),
    completion_id: integer('completion_id').references(() => completions.completion_id, { onDelete: 'set null' }),
    category: text('category', { enum: DOCUMENT_CATEGORIES }).notNull(),
    /** Display name: the original file name of the newest version. */
    title: text('title').notNull(),
    current_version: integer('current_version').notNull().default(1),
    uploaded_by: integer('uploaded_by').references(() => users.user_id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    /** Soft delete: hidden everywhere, kept with its files until an Admin purges it. */
    deleted_at: text('deleted_at'),
    deleted_by: integer('deleted_by').references(() => users.user_id, { onDelete: 'set null' }),
  },
  (t) => [
    index('documents_owner_idx').on(t.owner_id),
    index('documents_license_idx').on(t.license_id),
    index('documents_completion_idx').on(t.completion_id),
    index('documents_created_at_idx').on(t.created_at, t.document_id),
  ],
);

/**
 * The completions a CE certificate proves: one row per completion recorded from it (a transcript proves several;
 * docs/decisions.md "One certificate, several completions"). A completion is proved by at most one certificate
 * here. `documents.completion_id` keeps the first, for the screens and filters that show one.
 */
export const certificateCompletions = sqliteTable(
  'certificate_completions',
  {
    document_id: integer('document_id')
      .notNull()
      .references(() => documents.document_id, { onDelete: 'cascade' }),
    completion_id: integer('completion_id')
      .notNull()
      .references(() => completions.completion_id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.document_id, t.completion_id] }),
    uniqueIndex('certificate_completions_completion_unique').on(t.completion_id),
  ],
);

/** One uploaded file of a document. Older versions stay downloadable under their original names. */
export const documentVersions = sqliteTable(
  'document_versions',
  {
    version_id: integer('version_id').primaryKey({ autoIncrement: true }),
    document_id: integer('document_id')
      .notNull()
      .references(() => documents.document_id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    file_name: text('file_name').notNull(),
    /** The type detected from the content (not the one the browser claimed). */
    mime_type: text('mime_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** Where the file store keeps the bytes (db/files.ts). */
    storage_key: text('storage_key').notNull(),
    uploaded_by: integer('uploaded_by').references(() => users.user_id, { onDelete: 'set null' }),
    created_at: createdAt(),
    extraction_status: text('extraction_status', { enum: EXTRACTION_STATUSES }).notNull().default('none'),
    /** JSON: the fields read from a CE certificate, each with its confidence, and the suggested matches. */
    extraction: text('extraction'),
    extraction_error: text('extraction_error'),
    extracted_at: text('extracted_at'),
  },
  (t) => [
    uniqueIndex('document_versions_document_version_unique').on(t.document_id, t.version),
    uniqueIndex('document_versions_storage_key_unique').on(t.storage_key),
    index('document_versions_extraction_idx').on(t.extraction_status),
  ],
);

/**
 * The shared file store's bytes when the database is shared by several instances (PostgreSQL): each file in
 * chunks of at most 256 KiB, so no file is held whole in memory. On SQLite files live under $DATA_DIR and this
 * table stays empty (docs/architecture.md "Stored files").
 */
export const storedFileChunks = sqliteTable(
  'stored_file_chunks',
  {
    storage_key: text('storage_key').notNull(),
    seq: integer('seq').notNull(),
    data: blob('data', { mode: 'buffer' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.storage_key, t.seq] })],
);
