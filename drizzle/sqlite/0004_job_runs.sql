CREATE TABLE `job_runs` (
	`job` text NOT NULL,
	`run_key` text NOT NULL,
	`started_at` text,
	`instance` text,
	PRIMARY KEY(`job`, `run_key`)
);
