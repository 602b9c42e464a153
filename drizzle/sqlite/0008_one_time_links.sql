ALTER TABLE `password_reset_tokens` ADD `data` text;
--> statement-breakpoint
-- INSERT OR REPLACE (and an upsert) on an existing log_id would delete the old row without firing
-- audit_logs_no_delete (SQLite runs no delete trigger for REPLACE unless recursive_triggers is on): refuse an insert
-- whose log_id is taken, so the log stays append-only (docs/security.md "Audit log append-only").
CREATE TRIGGER `audit_logs_no_replace` BEFORE INSERT ON `audit_logs` WHEN NEW.`log_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `audit_logs` WHERE `log_id` = NEW.`log_id`) BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END;
