CREATE TABLE `document_versions` (
	`version_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` integer NOT NULL,
	`version` integer NOT NULL,
	`file_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`storage_key` text NOT NULL,
	`uploaded_by` integer,
	`created_at` text NOT NULL,
	`extraction_status` text DEFAULT 'none' NOT NULL,
	`extraction` text,
	`extraction_error` text,
	`extracted_at` text,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`document_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `document_versions_document_version_unique` ON `document_versions` (`document_id`,`version`);--> statement-breakpoint
CREATE UNIQUE INDEX `document_versions_storage_key_unique` ON `document_versions` (`storage_key`);--> statement-breakpoint
CREATE INDEX `document_versions_extraction_idx` ON `document_versions` (`extraction_status`);--> statement-breakpoint
CREATE TABLE `documents` (
	`document_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`license_id` integer,
	`completion_id` integer,
	`category` text NOT NULL,
	`title` text NOT NULL,
	`current_version` integer DEFAULT 1 NOT NULL,
	`uploaded_by` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`license_id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`completion_id`) REFERENCES `completions`(`completion_id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`deleted_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `documents_owner_idx` ON `documents` (`owner_id`);--> statement-breakpoint
CREATE INDEX `documents_license_idx` ON `documents` (`license_id`);--> statement-breakpoint
CREATE INDEX `documents_completion_idx` ON `documents` (`completion_id`);--> statement-breakpoint
CREATE INDEX `documents_created_at_idx` ON `documents` (`created_at`,`document_id`);--> statement-breakpoint
CREATE TABLE `stored_file_chunks` (
	`storage_key` text NOT NULL,
	`seq` integer NOT NULL,
	`data` blob NOT NULL,
	PRIMARY KEY(`storage_key`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `calendar_feeds` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_user_unique` ON `calendar_feeds` (`user_id`);--> statement-breakpoint
CREATE TABLE `inbox_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`event` text NOT NULL,
	`title` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`link` text,
	`object_type` text,
	`object_id` integer,
	`dedup_key` text,
	`read_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `inbox_notifications_user_idx` ON `inbox_notifications` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `inbox_notifications_unread_idx` ON `inbox_notifications` (`user_id`,`read_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `inbox_notifications_dedup_unique` ON `inbox_notifications` (`dedup_key`);--> statement-breakpoint
CREATE TABLE `notification_preferences` (
	`user_id` integer NOT NULL,
	`event` text NOT NULL,
	`in_app` integer NOT NULL,
	`email` integer NOT NULL,
	`sms` integer NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `event`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
