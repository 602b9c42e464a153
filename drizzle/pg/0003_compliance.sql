ALTER TABLE "licenses" ADD COLUMN "ce_topic_hours_missing" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "ce_topics_missing" jsonb DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE "completions" ADD COLUMN "credit_cycle_start" date;--> statement-breakpoint
ALTER TABLE "ce_rules" ADD COLUMN "allow_repeat_credit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "actor_name" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "actor_email" text;--> statement-breakpoint
-- The audit trail keeps who acted (docs/decisions.md "Audit: who acted"): existing entries take their actor's
-- name and e-mail once, from the users of today; entries made by the system (no user, no IP) read 'System'.
-- The append-only trigger is lifted for this one update and put back.
DROP TRIGGER "audit_logs_no_update" ON "audit_logs";
--> statement-breakpoint
UPDATE "audit_logs" AS a SET "actor_name" = trim(u."first_name" || ' ' || u."last_name"), "actor_email" = u."email"
FROM "users" AS u WHERE u."user_id" = a."user_id";
--> statement-breakpoint
UPDATE "audit_logs" SET "actor_name" = 'System' WHERE "user_id" IS NULL AND "ip_address" IS NULL;
--> statement-breakpoint
CREATE TRIGGER "audit_logs_no_update" BEFORE UPDATE ON "audit_logs"
FOR EACH ROW EXECUTE FUNCTION "audit_logs_append_only"();
