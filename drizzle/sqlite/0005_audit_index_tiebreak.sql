DROP INDEX `audit_timestamp_idx`;--> statement-breakpoint
DROP INDEX `audit_action_idx`;--> statement-breakpoint
DROP INDEX `audit_table_idx`;--> statement-breakpoint
DROP INDEX `audit_user_idx`;--> statement-breakpoint
CREATE INDEX `audit_timestamp_idx` ON `audit_logs` (`timestamp`,`log_id`);--> statement-breakpoint
CREATE INDEX `audit_action_idx` ON `audit_logs` (`action`,`timestamp`,`log_id`);--> statement-breakpoint
CREATE INDEX `audit_table_idx` ON `audit_logs` (`target_table`,`timestamp`,`log_id`);--> statement-breakpoint
CREATE INDEX `audit_user_idx` ON `audit_logs` (`user_id`,`timestamp`,`log_id`);