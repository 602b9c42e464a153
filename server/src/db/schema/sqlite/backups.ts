import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { BACKUP_STATUSES, BACKUP_TYPES } from '@lm/shared';
import { users } from './users.ts';
import { createdAt } from './columns.ts';

export const backups = sqliteTable(
  'backups',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    description: text('description').notNull().default(''),
    size: integer('size').notNull().default(0),
    status: text('status', { enum: BACKUP_STATUSES }).notNull().default('in_progress'),
    type: text('type', { enum: BACKUP_TYPES }).notNull().default('manual'),
    created_by: integer('created_by').references(() => users.user_id, { onDelete: 'set null' }),
    include_files: integer('include_files', { mode: 'boolean' }).notNull().default(true),
    /** File name of the zip inside $DATA_DIR/backups. */
    file_name: text('file_name'),
    /** JSON: schema version, row counts, checksum. */
    manifest: text('manifest'),
    error: text('error'),
    created_at: createdAt(),
    completed_at: text('completed_at'),
  },
  (t) => [index('backups_created_at_idx').on(t.created_at)],
);
