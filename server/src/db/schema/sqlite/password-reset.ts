import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './users.ts';
import { createdAt } from './columns.ts';

/**
 * Single-use links sent by e-mail: "Forgot password?" (purpose reset, 60 minutes), the welcome e-mail of a new
 * user (purpose welcome, 7 days), a one-time sign-in link (sign_in) and the undo of a sign-in e-mail change sent to
 * the old address (email_undo). Only the SHA-256 of the token is stored.
 */
export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    // Tokens are not history: they go with their user.
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    purpose: text('purpose', { enum: ['reset', 'welcome', 'sign_in', 'email_undo', 'email_change'] }).notNull(),
    // What the link acts on beyond its user: for email_undo, the sign-in e-mail to put back; for email_change, the new one.
    data: text('data'),
    expires_at: text('expires_at').notNull(),
    used_at: text('used_at'),
    requested_ip: text('requested_ip'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_unique').on(t.token_hash),
    index('password_reset_tokens_user_idx').on(t.user_id, t.created_at),
  ],
);
