CREATE TABLE `password_reset_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`requested_ip` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_tokens_hash_unique` ON `password_reset_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_idx` ON `password_reset_tokens` (`user_id`,`created_at`);--> statement-breakpoint
-- Data: the default templates of course_completed, payment_due, user_registered and password_reset get their
-- new text (sign-in address and password link, never a password) only where an office never changed them.
UPDATE `notification_templates` SET `subject` = 'Course completed: {{course_name}}', `body` = 'Hello {{user_name}},

Your completion of "{{course_name}}" on {{completion_date}} has been approved: {{ce_hours}} CE hours count toward your license.

{{app_name}}', `variables` = '["course_name","user_name","completion_date","ce_hours","app_name"]', `updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE `trigger_event` = 'course_completed' AND `subject` = 'Course completed: {{course_name}}' AND `body` = 'Hello {{user_name}},

Congratulations on completing "{{course_name}}". {{ce_hours}} CE hours will be credited once the completion is approved.

{{app_name}}';
--> statement-breakpoint
UPDATE `notification_templates` SET `subject` = 'Payment of {{amount}} due on {{due_date}}', `body` = 'Hello {{user_name}},

A {{payment_type}} payment of {{amount}} is due on {{due_date}} and is still pending. Please pay it to keep your records in good standing.

Questions? Contact us at {{support_email}}.

{{app_name}}', `variables` = '["amount","due_date","user_name","payment_type","support_email","app_name"]', `updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE `trigger_event` = 'payment_due' AND `subject` = 'Payment of {{amount}} due on {{due_date}}' AND `body` = 'Hello {{user_name}},

A payment of {{amount}} is due on {{due_date}}. Please pay it by then to keep your records in good standing.

Questions? Contact us at {{support_email}}.

{{app_name}}';
--> statement-breakpoint
UPDATE `notification_templates` SET `subject` = 'Welcome to {{app_name}}', `body` = 'Hello {{user_name}},

An account has been created for you. Your sign-in address is {{email}}.

Choose your password with this link (it works once, for {{link_valid_for}}):
{{password_link}}

Then sign in at {{sign_in_url}} to track your licenses, CE hours and renewals.

{{app_name}}', `variables` = '["app_name","user_name","email","link_valid_for","password_link","sign_in_url"]', `updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE `trigger_event` = 'user_registered' AND `subject` = 'Welcome to {{app_name}}' AND `body` = 'Hello {{user_name}},

Your account has been created. Sign in with {{email}} to track your licenses, CE hours and renewals.

Questions? Contact us at {{support_email}}.

{{app_name}}';
--> statement-breakpoint
UPDATE `notification_templates` SET `subject` = 'Reset your {{app_name}} password', `body` = 'Hello {{user_name}},

A new password was requested for your account {{email}}.
Choose it with this link (it works once, for {{link_valid_for}}):
{{password_link}}

If you did not ask for this, ignore this e-mail: your password stays as it is.

{{app_name}}', `variables` = '["app_name","user_name","email","link_valid_for","password_link"]', `updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE `trigger_event` = 'password_reset' AND `subject` = 'Your {{app_name}} password was reset' AND `body` = 'Hello {{user_name}},

The password of your account {{email}} was reset. If you did not ask for this, contact {{support_email}} at once.

{{app_name}}';
