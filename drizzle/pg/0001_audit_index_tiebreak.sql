DROP INDEX "audit_timestamp_idx";--> statement-breakpoint
DROP INDEX "audit_action_idx";--> statement-breakpoint
DROP INDEX "audit_table_idx";--> statement-breakpoint
DROP INDEX "audit_user_idx";--> statement-breakpoint
CREATE INDEX "audit_timestamp_idx" ON "audit_logs" USING btree ("timestamp","log_id");--> statement-breakpoint
CREATE INDEX "audit_action_idx" ON "audit_logs" USING btree ("action","timestamp","log_id");--> statement-breakpoint
CREATE INDEX "audit_table_idx" ON "audit_logs" USING btree ("target_table","timestamp","log_id");--> statement-breakpoint
CREATE INDEX "audit_user_idx" ON "audit_logs" USING btree ("user_id","timestamp","log_id");