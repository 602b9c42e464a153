import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { BACKUP_STATUSES, BACKUP_TYPES } from '@lm/shared';
import { users } from './users.ts';
import { createdAt, isoTimestamp } from './columns.ts';

export const backups = pgTable(
  'backups',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    description: text('description').notNull().default(''),
    size: integer('size').notNull().default(0),
    status: text('status', { enum: BACKUP_STATUSES }).notNull().default('in_progress'),
    type: text('type', { enum: BACKUP_TYPES }).notNull().default('manual'),
    created_by: integer('created_by').references(() => users.user_id, { onDelete: 'set null' }),
    include_files: boolean('include_files').notNull().default(true),
    /** File name of the zip inside $DATA_DIR/backups. */
    file_name: text('file_name'),
    /** JSON: schema version, row counts, checksum. */
    manifest: text('manifest'),
    error: text('error'),
    created_at: createdAt(),
    completed_at: isoTimestamp('completed_at'),
  },
  (t) => [index('backups_created_at_idx').on(t.created_at)],
);
