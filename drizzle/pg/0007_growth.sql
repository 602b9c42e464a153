-- "Contains" search served by an index (docs/decisions.md "Search at any size"): pg_trgm GIN indexes on exactly the
-- expressions the lists compare with ILIKE (server/src/db/search.ts). pg_trgm is a trusted extension (PostgreSQL 13+):
-- the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "users_phone_trgm_idx" ON "users" USING gin ("phone_number" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "licenses_number_trgm_idx" ON "licenses" USING gin ("license_number" gin_trgm_ops);
--> statement-breakpoint
CREATE TABLE "license_totals" (
	"state" text NOT NULL,
	"status" text NOT NULL,
	"expiration_date" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "license_totals_status_expiration_date_state_pk" PRIMARY KEY("status","expiration_date","state")
);
--> statement-breakpoint
DROP INDEX "users_brokerage_idx";--> statement-breakpoint
DROP INDEX "licenses_user_idx";--> statement-breakpoint
DROP INDEX "completions_user_idx";--> statement-breakpoint
CREATE INDEX "licenses_renewed_at_idx" ON "licenses" USING btree ("renewed_at");--> statement-breakpoint
CREATE INDEX "users_brokerage_idx" ON "users" USING btree ("brokerage_id","user_id");--> statement-breakpoint
CREATE INDEX "licenses_user_idx" ON "licenses" USING btree ("user_id","expiration_date");--> statement-breakpoint
CREATE INDEX "completions_user_idx" ON "completions" USING btree ("user_id","created_at");--> statement-breakpoint
-- Running totals of the licenses (docs/decisions.md "Totals kept as changes happen"): kept by these triggers in
-- the writing transaction, whoever writes (the app, imports, restores, copies); started from the licenses there are.
INSERT INTO "license_totals" ("state", "status", "expiration_date", "n")
  SELECT "state", "status", "expiration_date", count(*) FROM "licenses" GROUP BY "status", "expiration_date", "state";
--> statement-breakpoint
CREATE FUNCTION license_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE license_totals SET n = n - 1
      WHERE status = OLD.status AND expiration_date = OLD.expiration_date AND state = OLD.state;
    DELETE FROM license_totals
      WHERE status = OLD.status AND expiration_date = OLD.expiration_date AND state = OLD.state AND n <= 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO license_totals AS t (state, status, expiration_date, n) VALUES (NEW.state, NEW.status, NEW.expiration_date, 1)
      ON CONFLICT (status, expiration_date, state) DO UPDATE SET n = t.n + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "license_totals_insert" AFTER INSERT ON "licenses" FOR EACH ROW EXECUTE FUNCTION license_totals_change();
--> statement-breakpoint
CREATE TRIGGER "license_totals_delete" AFTER DELETE ON "licenses" FOR EACH ROW EXECUTE FUNCTION license_totals_change();
--> statement-breakpoint
-- Only a change of a counted column moves a total (the WHEN; SQLite also names the columns).
CREATE TRIGGER "license_totals_update" AFTER UPDATE ON "licenses" FOR EACH ROW
  WHEN (NEW.state IS DISTINCT FROM OLD.state OR NEW.status IS DISTINCT FROM OLD.status OR NEW.expiration_date IS DISTINCT FROM OLD.expiration_date)
  EXECUTE FUNCTION license_totals_change();
--> statement-breakpoint
DROP INDEX "users_role_idx";--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role_id","deleted_at");
--> statement-breakpoint
CREATE TABLE "payment_totals" (
	"payment_date" date NOT NULL,
	"status" text NOT NULL,
	"payment_type" text NOT NULL,
	"payment_method" text NOT NULL,
	"n" integer NOT NULL,
	"cents" integer NOT NULL,
	CONSTRAINT "payment_totals_payment_date_status_payment_type_payment_method_pk" PRIMARY KEY("payment_date","status","payment_type","payment_method")
);
--> statement-breakpoint
-- Running totals of the payments (docs/decisions.md "Totals kept as changes happen"), kept like license_totals.
INSERT INTO "payment_totals" ("payment_date", "status", "payment_type", "payment_method", "n", "cents")
  SELECT "payment_date", "status", "payment_type", "payment_method", count(*), sum("amount_cents") FROM "payments"
  GROUP BY "payment_date", "status", "payment_type", "payment_method";
--> statement-breakpoint
CREATE FUNCTION payment_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE payment_totals SET n = n - 1, cents = cents - OLD.amount_cents
      WHERE payment_date = OLD.payment_date AND status = OLD.status AND payment_type = OLD.payment_type AND payment_method = OLD.payment_method;
    DELETE FROM payment_totals
      WHERE payment_date = OLD.payment_date AND status = OLD.status AND payment_type = OLD.payment_type AND payment_method = OLD.payment_method
        AND n <= 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO payment_totals AS t (payment_date, status, payment_type, payment_method, n, cents)
      VALUES (NEW.payment_date, NEW.status, NEW.payment_type, NEW.payment_method, 1, NEW.amount_cents)
      ON CONFLICT (payment_date, status, payment_type, payment_method) DO UPDATE SET n = t.n + 1, cents = t.cents + excluded.cents;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "payment_totals_insert" AFTER INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION payment_totals_change();
--> statement-breakpoint
CREATE TRIGGER "payment_totals_delete" AFTER DELETE ON "payments" FOR EACH ROW EXECUTE FUNCTION payment_totals_change();
--> statement-breakpoint
-- Only a change of a counted column moves a total (the WHEN; SQLite also names the columns).
CREATE TRIGGER "payment_totals_update" AFTER UPDATE ON "payments" FOR EACH ROW
  WHEN (NEW.payment_date IS DISTINCT FROM OLD.payment_date OR NEW.status IS DISTINCT FROM OLD.status
    OR NEW.payment_type IS DISTINCT FROM OLD.payment_type OR NEW.payment_method IS DISTINCT FROM OLD.payment_method
    OR NEW.amount_cents IS DISTINCT FROM OLD.amount_cents)
  EXECUTE FUNCTION payment_totals_change();
--> statement-breakpoint
DROP INDEX "users_brokerage_idx";--> statement-breakpoint
CREATE INDEX "users_brokerage_idx" ON "users" USING btree ("brokerage_id","role_id","deleted_at","user_id");
--> statement-breakpoint
DROP INDEX "licenses_expiration_idx";--> statement-breakpoint
CREATE INDEX "licenses_expiration_idx" ON "licenses" USING btree ("expiration_date","license_id");
