-- People in name order (server/src/db/sql.ts personNameOrder): last name, then first name, letter case aside; a
-- first page by name reads this index in order and stops (docs/decisions.md "People").
DROP INDEX `users_last_name_idx`;--> statement-breakpoint
CREATE INDEX `users_name_idx` ON `users` ("last_name" COLLATE NOCASE,"first_name" COLLATE NOCASE,`user_id`);
