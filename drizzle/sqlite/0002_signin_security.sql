CREATE TABLE `known_sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `known_sources_unique` ON `known_sources` (`user_id`,`kind`,`value`);--> statement-breakpoint
CREATE TABLE `login_counters` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`reset_at` integer NOT NULL
);
--> statement-breakpoint
-- The audit log is append-only in the database itself (docs/security.md).
CREATE TRIGGER `audit_logs_no_update` BEFORE UPDATE ON `audit_logs` BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER `audit_logs_no_delete` BEFORE DELETE ON `audit_logs` BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END;
--> statement-breakpoint
-- E-mail addresses are stored normalised (lower case); the unique index on lower(email) rules out collisions.
UPDATE `users` SET `email` = lower(trim(`email`)) WHERE `email` <> lower(trim(`email`));
