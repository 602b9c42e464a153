-- One day's payments of one kind may pass 2^31 cents ($21.4M at up to $1M a payment): the running total is 64-bit.
ALTER TABLE "payment_totals" ALTER COLUMN "cents" SET DATA TYPE bigint;
