CREATE TABLE `ce_adjustments` (
	`adjustment_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`license_id` integer NOT NULL,
	`cycle_start_date` text NOT NULL,
	`hours` real NOT NULL,
	`reason` text NOT NULL,
	`created_by` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`license_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "ce_adjustments_hours_check" CHECK("ce_adjustments"."hours" <> 0)
);
--> statement-breakpoint
CREATE INDEX `ce_adjustments_license_idx` ON `ce_adjustments` (`license_id`,`cycle_start_date`);--> statement-breakpoint
CREATE TABLE `ce_rules` (
	`rule_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`state` text NOT NULL,
	`license_type` text NOT NULL,
	`hours_required` real NOT NULL,
	`cycle_years` integer DEFAULT 2 NOT NULL,
	`topics` text DEFAULT '[]' NOT NULL,
	`notes` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "ce_rules_hours_check" CHECK("ce_rules"."hours_required" >= 0 AND "ce_rules"."cycle_years" BETWEEN 1 AND 10)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ce_rules_state_type_unique` ON `ce_rules` (`state`,`license_type`);--> statement-breakpoint
CREATE TABLE `license_cycles` (
	`cycle_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`license_id` integer NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`required` real NOT NULL,
	`completed` real NOT NULL,
	`topics` text DEFAULT '[]' NOT NULL,
	`rule` text,
	`closed_by` integer,
	`closed_at` text NOT NULL,
	`renewed_with_ce_outstanding` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`license_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`closed_by`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "license_cycles_dates_check" CHECK("license_cycles"."start_date" <= "license_cycles"."end_date")
);
--> statement-breakpoint
CREATE INDEX `license_cycles_license_idx` ON `license_cycles` (`license_id`,`start_date`);--> statement-breakpoint
ALTER TABLE `licenses` ADD `cycle_start_date` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `courses` ADD `topic` text;--> statement-breakpoint
-- Hand-written (docs/decisions.md "CE ledger and cycles"): every existing license is in its first cycle.
UPDATE `licenses` SET `cycle_start_date` = `issue_date`;
--> statement-breakpoint
-- An insert that leaves cycle_start_date empty starts its first cycle on the issue date.
CREATE TRIGGER `licenses_cycle_start_default` AFTER INSERT ON `licenses`
WHEN NEW.`cycle_start_date` = ''
BEGIN
  UPDATE `licenses` SET `cycle_start_date` = NEW.`issue_date` WHERE `license_id` = NEW.`license_id`;
END;
--> statement-breakpoint
-- The old free counter becomes the ledger's sum: what the Approved linked completions inside the cycle
-- do not explain is carried over as one adjustment per license.
INSERT INTO `ce_adjustments` (`license_id`, `cycle_start_date`, `hours`, `reason`, `created_by`, `created_at`)
SELECT `license_id`, `cycle_start_date`, `diff`, 'carried over from before the CE ledger', NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (
  SELECT l.`license_id`, l.`cycle_start_date`,
    round(l.`ce_hours_completed` - coalesce((
      SELECT sum(c.`hours`) FROM `completions` c
      WHERE c.`license_id` = l.`license_id` AND c.`status` = 'Approved'
        AND c.`completion_date` >= l.`issue_date` AND c.`completion_date` <= l.`expiration_date`
    ), 0), 2) AS `diff`
  FROM `licenses` l
)
WHERE `diff` <> 0;
