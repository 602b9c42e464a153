ALTER TABLE `licenses` ADD `ce_topic_hours_missing` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `licenses` ADD `ce_topics_missing` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `completions` ADD `credit_cycle_start` text;--> statement-breakpoint
ALTER TABLE `ce_rules` ADD `allow_repeat_credit` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `audit_logs` ADD `actor_name` text;--> statement-breakpoint
ALTER TABLE `audit_logs` ADD `actor_email` text;--> statement-breakpoint
-- The audit trail keeps who acted (docs/decisions.md "Audit: who acted"): existing entries take their actor's
-- name and e-mail once, from the users of today; entries made by the system (no user, no IP) read 'System'.
-- The append-only trigger is lifted for this one update and put back.
DROP TRIGGER `audit_logs_no_update`;
--> statement-breakpoint
UPDATE `audit_logs` SET
  `actor_name` = (SELECT trim(u.`first_name` || ' ' || u.`last_name`) FROM `users` AS u WHERE u.`user_id` = `audit_logs`.`user_id`),
  `actor_email` = (SELECT u.`email` FROM `users` AS u WHERE u.`user_id` = `audit_logs`.`user_id`)
WHERE `user_id` IS NOT NULL;
--> statement-breakpoint
UPDATE `audit_logs` SET `actor_name` = 'System' WHERE `user_id` IS NULL AND `ip_address` IS NULL;
--> statement-breakpoint
CREATE TRIGGER `audit_logs_no_update` BEFORE UPDATE ON `audit_logs` BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END;
