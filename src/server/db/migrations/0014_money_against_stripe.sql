-- Money that survives real Stripe (docs/decisions/0018-money-against-stripe.md); written by hand, matching schema.ts.
-- The ledger names the provider's fees, disputes and the losses the platform bears when a transfer cannot be taken back.
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('charge','refund','transfer','reversal','platform_fee','platform_fee_refund','provider_fee','dispute','dispute_fee','dispute_reinstated','dispute_fee_reinstated','reversal_loss'));--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "dispute_id" uuid;--> statement-breakpoint
-- A transfer's idempotency window is counted from its first attempt; a refused payout is tried again with backoff, and after repeated refusals it is refused for good until an admin retries it.
ALTER TABLE "payouts" ADD COLUMN "first_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "refusals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Rows of before: their first attempt is not known; the earliest time known is their creation.
UPDATE "payouts" SET "first_attempt_at" = "created_at" WHERE "attempts" > 0;--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_status_check";--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" in ('owed','pending','paid','failed','refused','reversed','cancelled'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_refusals_check" CHECK ("payouts"."refusals" >= 0);--> statement-breakpoint
-- A chargeback on a payment: Stripe's dispute, with its state, the evidence deadline and the money it took and gave back.
CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_dispute_id" text NOT NULL,
	"provider_charge_id" text,
	"amount" numeric(10, 2) NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"fee" numeric(10, 2) DEFAULT '0' NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence_due_by" timestamp with time zone,
	"funds_withdrawn_at" timestamp with time zone,
	"funds_reinstated_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"outcome_handled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_status_check" CHECK ("disputes"."status" in ('warning_needs_response','warning_under_review','warning_closed','needs_response','under_review','won','lost','prevented')),
	CONSTRAINT "disputes_amount_check" CHECK ("disputes"."amount" > 0 and "disputes"."fee" >= 0)
);
--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_provider_id_unique" ON "disputes" USING btree ("provider","provider_dispute_id");--> statement-breakpoint
CREATE INDEX "disputes_payment_idx" ON "disputes" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "disputes_open_idx" ON "disputes" USING btree ("created_at","id") WHERE "disputes"."closed_at" IS NULL;--> statement-breakpoint
-- An admin may send a failed or refused payout again.
ALTER TABLE "admin_actions" DROP CONSTRAINT "admin_actions_action_check";--> statement-breakpoint
ALTER TABLE "admin_actions" ADD CONSTRAINT "admin_actions_action_check" CHECK ("admin_actions"."action" in ('user.role_changed','driver.approved','driver.rejected','driver.revoked','category.created','category.renamed','category.deleted','commission.updated','order.cancelled','order.refunded','user.role_removed','user.suspended','user.restored','product.hidden','product.restored','payout.retried'));
