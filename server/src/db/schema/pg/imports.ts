import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import {
  IMPORT_ACTIONS,
  IMPORT_KINDS,
  IMPORT_STATUSES,
  type ImportCounts,
  type ImportMapping,
  type ImportRowError,
  type ImportRowWritten,
} from '@lm/shared';
import { users } from './users.ts';
import { brokerages } from './brokerages.ts';
import { createdAt, isoTimestamp, updatedAt } from './columns.ts';

/** One uploaded file (docs/decisions.md "Imports"): its mapping, its counts and where it stands. */
export const imports = pgTable(
  'imports',
  {
    import_id: integer('import_id').primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind', { enum: IMPORT_KINDS }).notNull(),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('previewed'),
    file_name: text('file_name').notNull(),
    created_by: integer('created_by').references(() => users.user_id, { onDelete: 'set null' }),
    /** The importer's name as of then (the list keeps showing it). */
    created_by_name: text('created_by_name').notNull(),
    /** A Broker's roster lands in this brokerage only. */
    brokerage_id: integer('brokerage_id').references(() => brokerages.brokerage_id, { onDelete: 'set null' }),
    send_welcome: boolean('send_welcome').notNull().default(false),
    /** The file's header row, in order. */
    headers: jsonb('headers').$type<string[]>().notNull(),
    mapping: jsonb('mapping').$type<ImportMapping>().notNull(),
    counts: jsonb('counts').$type<ImportCounts>().notNull(),
    /** Brokerages the commit created (removed again by undo when nothing else uses them). */
    created_brokerages: jsonb('created_brokerages').$type<number[]>().notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    committed_at: isoTimestamp('committed_at'),
    undone_at: isoTimestamp('undone_at'),
  },
  (t) => [index('imports_created_at_idx').on(t.created_at, t.import_id), index('imports_created_by_idx').on(t.created_by)],
);

/** One data row of an import: the raw cells (so a new mapping recomputes the preview), its action and errors. */
export const importRows = pgTable(
  'import_rows',
  {
    import_id: integer('import_id')
      .notNull()
      .references(() => imports.import_id, { onDelete: 'cascade' }),
    /** The spreadsheet's row number (the header is row 1). */
    row_number: integer('row_number').notNull(),
    cells: jsonb('cells').$type<string[]>().notNull(),
    action: text('action', { enum: IMPORT_ACTIONS }).notNull(),
    summary: text('summary'),
    errors: jsonb('errors').$type<ImportRowError[]>().notNull(),
    written: jsonb('written').$type<ImportRowWritten>(),
  },
  (t) => [primaryKey({ columns: [t.import_id, t.row_number] }), index('import_rows_action_idx').on(t.import_id, t.action, t.row_number)],
);
