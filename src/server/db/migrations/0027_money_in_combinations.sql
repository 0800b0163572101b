-- Money in combinations (docs/decisions/0022-money-in-combinations.md): per-order parts of lost disputes, refunded
-- quantities per item, a refund's items and its undoing, a payout's key generation and whether its last answer was lost,
-- the undone states of a take-back and the transfers it concerns, and the ledger's kinds for a failed refund, a restored
-- share and a dispute's loss.
CREATE TABLE "dispute_parts" (
	"dispute_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"taken_back_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispute_parts_dispute_id_order_id_pk" PRIMARY KEY("dispute_id","order_id"),
	CONSTRAINT "dispute_parts_amount_check" CHECK ("dispute_parts"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "payout_reversals" DROP CONSTRAINT "payout_reversals_status_check";--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "refunded_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD COLUMN "provider_transfer_id" text;--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD COLUMN "restore_transfer_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "key_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "is_uncertain" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "items" jsonb;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dispute_parts" ADD CONSTRAINT "dispute_parts_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_parts" ADD CONSTRAINT "dispute_parts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispute_parts_order_idx" ON "dispute_parts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_fee_restored_idx" ON "ledger_entries" USING btree ("order_id") WHERE "ledger_entries"."kind" = 'platform_fee_restored';--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('charge','refund','transfer','reversal','platform_fee','platform_fee_refund','provider_fee','dispute','dispute_fee','dispute_reinstated','dispute_fee_reinstated','reversal_loss','refund_failure','platform_fee_restored','loss_cancelled','dispute_loss','restore_transfer'));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_refunded_quantity_check" CHECK ("order_items"."refunded_quantity" >= 0 and "order_items"."refunded_quantity" <= "order_items"."quantity");--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD CONSTRAINT "payout_reversals_status_check" CHECK ("payout_reversals"."status" in ('pending','reversed','unrecovered','cancelled','void','restoring','restored'));--> statement-breakpoint
-- A pending payout whose last attempt ended without an answer may exist at the provider.
UPDATE "payouts" SET "is_uncertain" = true WHERE "status" in ('pending','owed') AND "attempts" > 0 AND "last_error" IS NOT NULL;
