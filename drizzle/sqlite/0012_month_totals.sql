CREATE TABLE `license_month_totals` (
	`state` text NOT NULL,
	`status` text NOT NULL,
	`expiration_month` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`status`, `expiration_month`, `state`)
);
--> statement-breakpoint
CREATE INDEX `license_totals_expiration_idx` ON `license_totals` (`expiration_date`);--> statement-breakpoint
-- The licenses' running totals by expiration month (docs/decisions.md "Totals kept as changes happen"), the month
-- written as its first day: kept by the license_totals triggers below in the same writing transaction, whoever
-- writes; started from the licenses there are. The reports read a month's row where every day of it judges alike.
INSERT INTO `license_month_totals` (`state`, `status`, `expiration_month`, `n`)
  SELECT `state`, `status`, substr(`expiration_date`, 1, 7) || '-01', count(*) FROM `licenses`
  GROUP BY `status`, substr(`expiration_date`, 1, 7), `state`;
--> statement-breakpoint
DROP TRIGGER `license_totals_insert`;
--> statement-breakpoint
DROP TRIGGER `license_totals_delete`;
--> statement-breakpoint
DROP TRIGGER `license_totals_update`;
--> statement-breakpoint
CREATE TRIGGER `license_totals_insert` AFTER INSERT ON `licenses` BEGIN
  INSERT INTO `license_totals` (`state`, `status`, `expiration_date`, `n`) VALUES (new.`state`, new.`status`, new.`expiration_date`, 1)
    ON CONFLICT (`status`, `expiration_date`, `state`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `license_month_totals` (`state`, `status`, `expiration_month`, `n`)
    VALUES (new.`state`, new.`status`, substr(new.`expiration_date`, 1, 7) || '-01', 1)
    ON CONFLICT (`status`, `expiration_month`, `state`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `license_totals_delete` AFTER DELETE ON `licenses` BEGIN
  UPDATE `license_totals` SET `n` = `n` - 1
    WHERE `status` = old.`status` AND `expiration_date` = old.`expiration_date` AND `state` = old.`state`;
  DELETE FROM `license_totals`
    WHERE `status` = old.`status` AND `expiration_date` = old.`expiration_date` AND `state` = old.`state` AND `n` <= 0;
  UPDATE `license_month_totals` SET `n` = `n` - 1
    WHERE `status` = old.`status` AND `expiration_month` = substr(old.`expiration_date`, 1, 7) || '-01' AND `state` = old.`state`;
  DELETE FROM `license_month_totals`
    WHERE `status` = old.`status` AND `expiration_month` = substr(old.`expiration_date`, 1, 7) || '-01' AND `state` = old.`state` AND `n` <= 0;
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
  UPDATE `license_month_totals` SET `n` = `n` - 1
    WHERE `status` = old.`status` AND `expiration_month` = substr(old.`expiration_date`, 1, 7) || '-01' AND `state` = old.`state`;
  DELETE FROM `license_month_totals`
    WHERE `status` = old.`status` AND `expiration_month` = substr(old.`expiration_date`, 1, 7) || '-01' AND `state` = old.`state` AND `n` <= 0;
  INSERT INTO `license_month_totals` (`state`, `status`, `expiration_month`, `n`)
    VALUES (new.`state`, new.`status`, substr(new.`expiration_date`, 1, 7) || '-01', 1)
    ON CONFLICT (`status`, `expiration_month`, `state`) DO UPDATE SET `n` = `n` + 1;
END;
