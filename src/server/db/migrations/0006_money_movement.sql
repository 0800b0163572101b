-- Payments ready to move money (docs/decisions/0013-money-movement.md, Payments and refunds); written by hand, matching schema.ts.
-- The charge a transfer names as its source_transaction, and the transfer_group given to each PaymentIntent.
ALTER TABLE "payments" ADD COLUMN "provider_charge_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "transfer_group" text;--> statement-breakpoint
-- What was priced, as a fingerprint: a reload of the payment screen finds the open payment of the same checkout.
ALTER TABLE "payments" ADD COLUMN "checkout_key" text;--> statement-breakpoint
-- An abandoned PaymentIntent is cancelled at the provider (docs/rules/money.md, Payments).
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_check";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('requires_payment','succeeded','failed','refunded','partially_refunded','cancelled'));--> statement-breakpoint
-- One open payment per checkout of a buyer: a second one for the same checkout is refused by the database too.
CREATE UNIQUE INDEX "payments_open_checkout_unique" ON "payments" USING btree ("buyer_id","checkout_key") WHERE "payments"."processed_at" IS NULL AND "payments"."status" in ('requires_payment','succeeded') AND "payments"."checkout_key" IS NOT NULL;--> statement-breakpoint
-- Start-up recovery pages through every unprocessed payment by (created_at, id).
CREATE INDEX "payments_unprocessed_idx" ON "payments" USING btree ("created_at","id") WHERE "payments"."processed_at" IS NULL;--> statement-breakpoint
-- Refunds are tracked to their final state, with what went wrong and how often it was tried.
ALTER TABLE "refunds" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "refunds" SET "status" = CASE WHEN "provider_refund_id" IS NOT NULL THEN 'succeeded' ELSE 'pending' END;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('pending','succeeded','failed','requires_action','canceled'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_attempts_check" CHECK ("refunds"."attempts" >= 0);--> statement-breakpoint
-- The timer's work list and the admin's list of refunds that failed or still wait.
CREATE INDEX "refunds_unfinished_idx" ON "refunds" USING btree ("created_at","id") WHERE "refunds"."status" in ('pending','requires_action','failed');--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_id_unique" ON "refunds" USING btree ("provider_refund_id");
