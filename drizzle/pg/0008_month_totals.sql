CREATE TABLE "license_month_totals" (
	"state" text NOT NULL,
	"status" text NOT NULL,
	"expiration_month" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "license_month_totals_status_expiration_month_state_pk" PRIMARY KEY("status","expiration_month","state")
);
--> statement-breakpoint
CREATE INDEX "license_totals_expiration_idx" ON "license_totals" USING btree ("expiration_date");--> statement-breakpoint
-- The licenses' running totals by expiration month (docs/decisions.md "Totals kept as changes happen"), the month
-- written as its first day: kept by license_totals_change() below in the same writing transaction, whoever writes;
-- started from the licenses there are. The reports read a month's row where every day of it judges alike. The
-- month is truncated as a timestamp without time zone: the session's time zone plays no part.
INSERT INTO "license_month_totals" ("state", "status", "expiration_month", "n")
  SELECT "state", "status", date_trunc('month', "expiration_date"::timestamp)::date, count(*) FROM "licenses"
  GROUP BY "status", date_trunc('month', "expiration_date"::timestamp)::date, "state";
--> statement-breakpoint
-- One trigger call keeps both tables (the three triggers of "license_totals" stay as they are).
CREATE OR REPLACE FUNCTION license_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE license_totals SET n = n - 1
      WHERE status = OLD.status AND expiration_date = OLD.expiration_date AND state = OLD.state;
    DELETE FROM license_totals
      WHERE status = OLD.status AND expiration_date = OLD.expiration_date AND state = OLD.state AND n <= 0;
    UPDATE license_month_totals SET n = n - 1
      WHERE status = OLD.status AND expiration_month = date_trunc('month', OLD.expiration_date::timestamp)::date AND state = OLD.state;
    DELETE FROM license_month_totals
      WHERE status = OLD.status AND expiration_month = date_trunc('month', OLD.expiration_date::timestamp)::date AND state = OLD.state
        AND n <= 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO license_totals AS t (state, status, expiration_date, n) VALUES (NEW.state, NEW.status, NEW.expiration_date, 1)
      ON CONFLICT (status, expiration_date, state) DO UPDATE SET n = t.n + 1;
    INSERT INTO license_month_totals AS t (state, status, expiration_month, n)
      VALUES (NEW.state, NEW.status, date_trunc('month', NEW.expiration_date::timestamp)::date, 1)
      ON CONFLICT (status, expiration_month, state) DO UPDATE SET n = t.n + 1;
  END IF;
  RETURN NULL;
END $$;
