CREATE TABLE `api_keys` (
	`api_key_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`secret_hash` text NOT NULL,
	`scope` text NOT NULL,
	`brokerage_id` integer,
	`created_by` integer NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	FOREIGN KEY (`brokerage_id`) REFERENCES `brokerages`(`brokerage_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "api_keys_scope_check" CHECK("api_keys"."scope" IN ('read', 'write'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_prefix_unique` ON `api_keys` (`prefix`);--> statement-breakpoint
CREATE INDEX `api_keys_brokerage_idx` ON `api_keys` (`brokerage_id`);--> statement-breakpoint
CREATE TABLE `import_rows` (
	`import_id` integer NOT NULL,
	`row_number` integer NOT NULL,
	`cells` text NOT NULL,
	`action` text NOT NULL,
	`summary` text,
	`errors` text NOT NULL,
	`written` text,
	PRIMARY KEY(`import_id`, `row_number`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`import_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_rows_action_idx` ON `import_rows` (`import_id`,`action`,`row_number`);--> statement-breakpoint
CREATE TABLE `imports` (
	`import_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'previewed' NOT NULL,
	`file_name` text NOT NULL,
	`created_by` integer,
	`created_by_name` text NOT NULL,
	`brokerage_id` integer,
	`send_welcome` integer DEFAULT false NOT NULL,
	`headers` text NOT NULL,
	`mapping` text NOT NULL,
	`counts` text NOT NULL,
	`created_brokerages` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`committed_at` text,
	`undone_at` text,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`brokerage_id`) REFERENCES `brokerages`(`brokerage_id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `imports_created_at_idx` ON `imports` (`created_at`,`import_id`);--> statement-breakpoint
CREATE INDEX `imports_created_by_idx` ON `imports` (`created_by`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`attempted_at` text NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` integer NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`next_attempt_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`last_duration_ms` integer,
	`delivered_at` text,
	`claimed_until` text,
	`claim_token` text,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`failing_since` text,
	`created_by` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `webhook_event_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`caller` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer,
	`body` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`caller`, `idempotency_key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_at_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `deletions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`resource` text NOT NULL,
	`object_id` integer NOT NULL,
	`user_id` integer,
	`brokerage_id` integer,
	`deleted_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `deletions_deleted_at_idx` ON `deletions` (`deleted_at`,`id`);--> statement-breakpoint
CREATE INDEX `licenses_updated_at_idx` ON `licenses` (`updated_at`);