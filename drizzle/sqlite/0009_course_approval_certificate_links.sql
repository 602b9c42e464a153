CREATE TABLE `certificate_completions` (
	`document_id` integer NOT NULL,
	`completion_id` integer NOT NULL,
	PRIMARY KEY(`document_id`, `completion_id`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`document_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`completion_id`) REFERENCES `completions`(`completion_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificate_completions_completion_unique` ON `certificate_completions` (`completion_id`);--> statement-breakpoint
ALTER TABLE `courses` ADD `approval_number` text;--> statement-breakpoint
ALTER TABLE `courses` ADD `approval_state` text;