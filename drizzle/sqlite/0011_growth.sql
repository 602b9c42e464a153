-- "Contains" search served by an index (docs/decisions.md "Search at any size"): FTS5 trigram tables kept in step
-- by triggers. Derived data: contentless (content=''), so only the index is stored; the lists re-check every
-- candidate with the same LIKE as before, so results are exactly LIKE's.
CREATE VIRTUAL TABLE `user_search` USING fts5(`name`, `email`, `phone`, tokenize = 'trigram', content = '', contentless_delete = 1);
--> statement-breakpoint
CREATE VIRTUAL TABLE `license_search` USING fts5(`name`, `license_number`, tokenize = 'trigram', content = '', contentless_delete = 1);
--> statement-breakpoint
INSERT INTO `user_search` (`rowid`, `name`, `email`, `phone`)
  SELECT `user_id`, `first_name` || ' ' || `last_name`, `email`, `phone_number` FROM `users`;
--> statement-breakpoint
INSERT INTO `license_search` (`rowid`, `name`, `license_number`)
  SELECT l.`license_id`, u.`first_name` || ' ' || u.`last_name`, l.`license_number`
  FROM `licenses` AS l JOIN `users` AS u ON u.`user_id` = l.`user_id`;
--> statement-breakpoint
CREATE TRIGGER `users_search_insert` AFTER INSERT ON `users` BEGIN
  INSERT OR REPLACE INTO `user_search` (`rowid`, `name`, `email`, `phone`)
    VALUES (new.`user_id`, new.`first_name` || ' ' || new.`last_name`, new.`email`, new.`phone_number`);
  INSERT OR REPLACE INTO `license_search` (`rowid`, `name`, `license_number`)
    SELECT `license_id`, new.`first_name` || ' ' || new.`last_name`, `license_number` FROM `licenses` WHERE `user_id` = new.`user_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_search_update` AFTER UPDATE OF `first_name`, `last_name`, `email`, `phone_number` ON `users` BEGIN
  INSERT OR REPLACE INTO `user_search` (`rowid`, `name`, `email`, `phone`)
    VALUES (new.`user_id`, new.`first_name` || ' ' || new.`last_name`, new.`email`, new.`phone_number`);
  INSERT OR REPLACE INTO `license_search` (`rowid`, `name`, `license_number`)
    SELECT `license_id`, new.`first_name` || ' ' || new.`last_name`, `license_number` FROM `licenses`
    WHERE `user_id` = new.`user_id` AND (new.`first_name` IS NOT old.`first_name` OR new.`last_name` IS NOT old.`last_name`);
END;
--> statement-breakpoint
CREATE TRIGGER `users_search_delete` AFTER DELETE ON `users` BEGIN
  DELETE FROM `user_search` WHERE `rowid` = old.`user_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `licenses_search_insert` AFTER INSERT ON `licenses` BEGIN
  INSERT OR REPLACE INTO `license_search` (`rowid`, `name`, `license_number`)
    SELECT new.`license_id`, coalesce((SELECT `first_name` || ' ' || `last_name` FROM `users` WHERE `user_id` = new.`user_id`), ''), new.`license_number`;
END;
--> statement-breakpoint
CREATE TRIGGER `licenses_search_update` AFTER UPDATE OF `license_number`, `user_id` ON `licenses` BEGIN
  DELETE FROM `license_search` WHERE `rowid` = old.`license_id`;
  INSERT OR REPLACE INTO `license_search` (`rowid`, `name`, `license_number`)
    SELECT new.`license_id`, coalesce((SELECT `first_name` || ' ' || `last_name` FROM `users` WHERE `user_id` = new.`user_id`), ''), new.`license_number`;
END;
--> statement-breakpoint
CREATE TRIGGER `licenses_search_delete` AFTER DELETE ON `licenses` BEGIN
  DELETE FROM `license_search` WHERE `rowid` = old.`license_id`;
END;
--> statement-breakpoint
CREATE TABLE `license_totals` (
	`state` text NOT NULL,
	`status` text NOT NULL,
	`expiration_date` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`status`, `expiration_date`, `state`)
);
--> statement-breakpoint
DROP INDEX `users_brokerage_idx`;--> statement-breakpoint
CREATE INDEX `users_brokerage_idx` ON `users` (`brokerage_id`,`user_id`);--> statement-breakpoint
DROP INDEX `licenses_user_idx`;--> statement-breakpoint
CREATE INDEX `licenses_renewed_at_idx` ON `licenses` (`renewed_at`);--> statement-breakpoint
CREATE INDEX `licenses_user_idx` ON `licenses` (`user_id`,`expiration_date`);--> statement-breakpoint
DROP INDEX `completions_user_idx`;--> statement-breakpoint
CREATE INDEX `completions_user_idx` ON `completions` (`user_id`,`created_at`);--> statement-breakpoint
-- Running totals of the licenses (docs/decisions.md "Totals kept as changes happen"): kept by these triggers in
-- the writing transaction, whoever writes (the app, imports, restores, copies); started from the licenses there are.
INSERT INTO `license_totals` (`state`, `status`, `expiration_date`, `n`)
  SELECT `state`, `status`, `expiration_date`, count(*) FROM `licenses` GROUP BY `status`, `expiration_date`, `state`;
--> statement-breakpoint
CREATE TRIGGER `license_totals_insert` AFTER INSERT ON `licenses` BEGIN
  INSERT INTO `license_totals` (`state`, `status`, `expiration_date`, `n`) VALUES (new.`state`, new.`status`, new.`expiration_date`, 1)
    ON CONFLICT (`status`, `expiration_date`, `state`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `license_totals_delete` AFTER DELETE ON `licenses` BEGIN
  UPDATE `license_totals` SET `n` = `n` - 1
    WHERE `status` = old.`status` AND `expiration_date` = old.`expiration_date` AND `state` = old.`state`;
  DELETE FROM `license_totals`
    WHERE `status` = old.`status` AND `expiration_date` = old.`expiration_date` AND `state` = old.`state` AND `n` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `license_totals_update` AFTER UPDATE OF `state`, `status`, `expiration_date` ON `licenses`
  WHEN new.`state` IS NOT old.`state` OR new.`status` IS NOT old.`status` OR new.`expiration_date` IS NOT old.`expiration_date`
BEGIN
  UPDATE `license_totals` SET `n` = `n` - 1
    WHERE `status` = old.`status` AND `expiration_date` = old.`expiration_date` AND `state` = old.`state`;
  DELETE FROM `license_totals`
    WHERE `status` = old.`status` AND `expiration_date` = old.`expiration_date` AND `state` = old.`state` AND `n` <= 0;
  INSERT INTO `license_totals` (`state`, `status`, `expiration_date`, `n`) VALUES (new.`state`, new.`status`, new.`expiration_date`, 1)
    ON CONFLICT (`status`, `expiration_date`, `state`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
DROP INDEX `users_role_idx`;--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role_id`,`deleted_at`);
--> statement-breakpoint
CREATE TABLE `payment_totals` (
	`payment_date` text NOT NULL,
	`status` text NOT NULL,
	`payment_type` text NOT NULL,
	`payment_method` text NOT NULL,
	`n` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`payment_date`, `status`, `payment_type`, `payment_method`)
);
--> statement-breakpoint
-- Running totals of the payments (docs/decisions.md "Totals kept as changes happen"), kept like license_totals.
INSERT INTO `payment_totals` (`payment_date`, `status`, `payment_type`, `payment_method`, `n`, `cents`)
  SELECT `payment_date`, `status`, `payment_type`, `payment_method`, count(*), sum(`amount_cents`) FROM `payments`
  GROUP BY `payment_date`, `status`, `payment_type`, `payment_method`;
--> statement-breakpoint
CREATE TRIGGER `payment_totals_insert` AFTER INSERT ON `payments` BEGIN
  INSERT INTO `payment_totals` (`payment_date`, `status`, `payment_type`, `payment_method`, `n`, `cents`)
    VALUES (new.`payment_date`, new.`status`, new.`payment_type`, new.`payment_method`, 1, new.`amount_cents`)
    ON CONFLICT (`payment_date`, `status`, `payment_type`, `payment_method`) DO UPDATE SET `n` = `n` + 1, `cents` = `cents` + excluded.`cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `payment_totals_delete` AFTER DELETE ON `payments` BEGIN
  UPDATE `payment_totals` SET `n` = `n` - 1, `cents` = `cents` - old.`amount_cents`
    WHERE `payment_date` = old.`payment_date` AND `status` = old.`status` AND `payment_type` = old.`payment_type` AND `payment_method` = old.`payment_method`;
  DELETE FROM `payment_totals`
    WHERE `payment_date` = old.`payment_date` AND `status` = old.`status` AND `payment_type` = old.`payment_type` AND `payment_method` = old.`payment_method` AND `n` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `payment_totals_update` AFTER UPDATE OF `payment_date`, `status`, `payment_type`, `payment_method`, `amount_cents` ON `payments`
  WHEN new.`payment_date` IS NOT old.`payment_date` OR new.`status` IS NOT old.`status` OR new.`payment_type` IS NOT old.`payment_type`
    OR new.`payment_method` IS NOT old.`payment_method` OR new.`amount_cents` IS NOT old.`amount_cents`
BEGIN
  UPDATE `payment_totals` SET `n` = `n` - 1, `cents` = `cents` - old.`amount_cents`
    WHERE `payment_date` = old.`payment_date` AND `status` = old.`status` AND `payment_type` = old.`payment_type` AND `payment_method` = old.`payment_method`;
  DELETE FROM `payment_totals`
    WHERE `payment_date` = old.`payment_date` AND `status` = old.`status` AND `payment_type` = old.`payment_type` AND `payment_method` = old.`payment_method` AND `n` <= 0;
  INSERT INTO `payment_totals` (`payment_date`, `status`, `payment_type`, `payment_method`, `n`, `cents`)
    VALUES (new.`payment_date`, new.`status`, new.`payment_type`, new.`payment_method`, 1, new.`amount_cents`)
    ON CONFLICT (`payment_date`, `status`, `payment_type`, `payment_method`) DO UPDATE SET `n` = `n` + 1, `cents` = `cents` + excluded.`cents`;
END;
--> statement-breakpoint
DROP INDEX `users_brokerage_idx`;--> statement-breakpoint
CREATE INDEX `users_brokerage_idx` ON `users` (`brokerage_id`,`role_id`,`deleted_at`,`user_id`);
--> statement-breakpoint
DROP INDEX `licenses_expiration_idx`;--> statement-breakpoint
CREATE INDEX `licenses_expiration_idx` ON `licenses` (`expiration_date`,`license_id`);
