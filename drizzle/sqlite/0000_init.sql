CREATE TABLE `brokerages` (
	`brokerage_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`address` text,
	`phone` text,
	`email` text,
	`website` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `brokerages_name_idx` ON `brokerages` ("name" COLLATE NOCASE);--> statement-breakpoint
CREATE TABLE `sessions` (
	`session_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`ip_address` text,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_unique` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`user_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`role_id` integer NOT NULL,
	`brokerage_id` integer,
	`phone_number` text,
	`address` text,
	`city` text,
	`state` text,
	`zip_code` text,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` text,
	`failed_login_attempts` integer DEFAULT 0 NOT NULL,
	`locked_until` text,
	`last_login` text,
	`login_count` integer DEFAULT 0 NOT NULL,
	`password_changed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`brokerage_id`) REFERENCES `brokerages`(`brokerage_id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "users_role_check" CHECK("users"."role_id" IN (1, 2, 3, 4))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_lower_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role_id`);--> statement-breakpoint
CREATE INDEX `users_brokerage_idx` ON `users` (`brokerage_id`);--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`);--> statement-breakpoint
CREATE INDEX `users_last_name_idx` ON `users` (`last_name`,`first_name`);--> statement-breakpoint
CREATE TABLE `licenses` (
	`license_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`license_number` text NOT NULL,
	`state` text NOT NULL,
	`license_type` text DEFAULT 'Sales' NOT NULL,
	`issue_date` text NOT NULL,
	`expiration_date` text NOT NULL,
	`status` text DEFAULT 'Active' NOT NULL,
	`ce_hours_required` real DEFAULT 0 NOT NULL,
	`ce_hours_completed` real DEFAULT 0 NOT NULL,
	`renewed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "licenses_ce_check" CHECK("licenses"."ce_hours_required" >= 0 AND "licenses"."ce_hours_completed" >= 0),
	CONSTRAINT "licenses_dates_check" CHECK("licenses"."issue_date" <= "licenses"."expiration_date")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_state_number_unique` ON `licenses` (`state`,upper("license_number"));--> statement-breakpoint
CREATE INDEX `licenses_expiration_idx` ON `licenses` (`expiration_date`);--> statement-breakpoint
CREATE INDEX `licenses_status_expiration_idx` ON `licenses` (`status`,`expiration_date`);--> statement-breakpoint
CREATE INDEX `licenses_state_idx` ON `licenses` (`state`);--> statement-breakpoint
CREATE INDEX `licenses_user_idx` ON `licenses` (`user_id`);--> statement-breakpoint
CREATE INDEX `licenses_created_at_idx` ON `licenses` (`created_at`);--> statement-breakpoint
CREATE TABLE `completions` (
	`completion_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`course_id` integer NOT NULL,
	`license_id` integer,
	`completion_date` text NOT NULL,
	`hours` real NOT NULL,
	`status` text DEFAULT 'Pending' NOT NULL,
	`rating` integer,
	`reviewed_by` integer,
	`reviewed_at` text,
	`note` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`course_id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`license_id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "completions_hours_check" CHECK("completions"."hours" > 0),
	CONSTRAINT "completions_rating_check" CHECK("completions"."rating" IS NULL OR "completions"."rating" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE INDEX `completions_user_idx` ON `completions` (`user_id`);--> statement-breakpoint
CREATE INDEX `completions_course_idx` ON `completions` (`course_id`);--> statement-breakpoint
CREATE INDEX `completions_license_idx` ON `completions` (`license_id`);--> statement-breakpoint
CREATE INDEX `completions_status_idx` ON `completions` (`status`);--> statement-breakpoint
CREATE INDEX `completions_created_at_idx` ON `completions` (`created_at`);--> statement-breakpoint
CREATE TABLE `courses` (
	`course_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`course_name` text NOT NULL,
	`description` text NOT NULL,
	`provider` text NOT NULL,
	`ce_hours` real NOT NULL,
	`course_type` text DEFAULT 'Online' NOT NULL,
	`cost_cents` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`school_id` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`school_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "courses_ce_hours_check" CHECK("courses"."ce_hours" > 0),
	CONSTRAINT "courses_cost_check" CHECK("courses"."cost_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX `courses_school_idx` ON `courses` (`school_id`);--> statement-breakpoint
CREATE INDEX `courses_created_at_idx` ON `courses` (`created_at`);--> statement-breakpoint
CREATE TABLE `payments` (
	`payment_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`license_id` integer,
	`amount_cents` integer NOT NULL,
	`payment_type` text DEFAULT 'License Fee' NOT NULL,
	`payment_method` text DEFAULT 'Credit Card' NOT NULL,
	`status` text DEFAULT 'Completed' NOT NULL,
	`description` text,
	`payment_date` text NOT NULL,
	`created_by` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`license_id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payments_amount_check" CHECK("payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE INDEX `payments_date_idx` ON `payments` (`payment_date`);--> statement-breakpoint
CREATE INDEX `payments_user_date_idx` ON `payments` (`user_id`,`payment_date`);--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`status`);--> statement-breakpoint
CREATE INDEX `payments_license_idx` ON `payments` (`license_id`);--> statement-breakpoint
CREATE TABLE `audit_logs` (
	`log_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timestamp` text NOT NULL,
	`user_id` integer,
	`action` text NOT NULL,
	`target_table` text,
	`target_id` integer,
	`ip_address` text,
	`old_values` text,
	`new_values` text
);
--> statement-breakpoint
CREATE INDEX `audit_timestamp_idx` ON `audit_logs` (`timestamp`);--> statement-breakpoint
CREATE INDEX `audit_action_idx` ON `audit_logs` (`action`,`timestamp`);--> statement-breakpoint
CREATE INDEX `audit_table_idx` ON `audit_logs` (`target_table`,`timestamp`);--> statement-breakpoint
CREATE INDEX `audit_user_idx` ON `audit_logs` (`user_id`,`timestamp`);--> statement-breakpoint
CREATE TABLE `notification_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`template_id` integer,
	`template_name` text NOT NULL,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`user_id` integer,
	`license_id` integer,
	`subject` text,
	`body` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`transport` text,
	`outbox_file` text,
	`error` text,
	`reminder_key` text,
	`created_at` text NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`template_id`) REFERENCES `notification_templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`license_id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `notification_deliveries_created_idx` ON `notification_deliveries` (`created_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_status_idx` ON `notification_deliveries` (`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `notification_deliveries_reminder_unique` ON `notification_deliveries` (`reminder_key`);--> statement-breakpoint
CREATE TABLE `notification_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`type` text DEFAULT 'email' NOT NULL,
	`trigger_event` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`variables` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notification_templates_trigger_idx` ON `notification_templates` (`trigger_event`,`is_active`);--> statement-breakpoint
CREATE TABLE `backups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'in_progress' NOT NULL,
	`type` text DEFAULT 'manual' NOT NULL,
	`created_by` integer,
	`include_files` integer DEFAULT true NOT NULL,
	`file_name` text,
	`manifest` text,
	`error` text,
	`created_at` text NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `backups_created_at_idx` ON `backups` (`created_at`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by` integer
);
