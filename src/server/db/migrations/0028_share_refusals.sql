-- A share given back after a failed refund that the provider refuses (docs/decisions/0022-money-in-combinations.md,
-- Transfers and their keys): its refusals in a row, the generation of its key, and the `refused` state an admin ends.
ALTER TABLE "payout_reversals" DROP CONSTRAINT "payout_reversals_status_check";--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD COLUMN "refusals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD COLUMN "key_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD CONSTRAINT "payout_reversals_status_check" CHECK ("payout_reversals"."status" in ('pending','reversed','unrecovered','cancelled','void','restoring','restored','refused'));