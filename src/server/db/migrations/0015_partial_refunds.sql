-- Partial refunds and explicit losses (docs/decisions/0018-money-against-stripe.md, Refunds); written by hand, matching schema.ts.
-- An order may be refunded several times, each refund a part of what is left.
DROP INDEX "refunds_order_unique";--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
-- A finished order's transfers wait for the return window (PAYOUT_HOLD_HOURS) before they go out.
ALTER TABLE "payouts" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
-- What a refund (or a lost dispute) takes back from one payout: reduced before it went out (cancelled),
-- reversed at the provider, or unrecovered (the provider refused; the platform bears it).
CREATE TABLE "payout_reversals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payout_id" uuid NOT NULL,
	"refund_id" uuid,
	"dispute_id" uuid,
	"amount" numeric(10, 2) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_reversal_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"first_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"reversed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_reversals_status_check" CHECK ("payout_reversals"."status" in ('pending','reversed','unrecovered','cancelled')),
	CONSTRAINT "payout_reversals_amount_check" CHECK ("payout_reversals"."amount" > 0),
	CONSTRAINT "payout_reversals_attempts_check" CHECK ("payout_reversals"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD CONSTRAINT "payout_reversals_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD CONSTRAINT "payout_reversals_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_reversals_payout_idx" ON "payout_reversals" USING btree ("payout_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_reversals_refund_unique" ON "payout_reversals" USING btree ("payout_id","refund_id") WHERE "payout_reversals"."refund_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_reversals_dispute_unique" ON "payout_reversals" USING btree ("payout_id","dispute_id") WHERE "payout_reversals"."dispute_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payout_reversals_pending_idx" ON "payout_reversals" USING btree ("created_at","id") WHERE "payout_reversals"."status" = 'pending';--> statement-breakpoint
-- Rows of before: a payout-level reversal becomes a reversal row of the order's (single) refund.
INSERT INTO "payout_reversals" ("payout_id", "refund_id", "amount", "status", "provider_reversal_id", "attempts", "first_attempt_at", "last_attempt_at", "last_error", "reversed_at", "created_at", "updated_at")
SELECT p."id", (SELECT r."id" FROM "refunds" r WHERE r."order_id" = p."order_id" ORDER BY r."created_at" LIMIT 1), p."amount",
  CASE WHEN p."status" = 'reversed' THEN 'reversed' ELSE 'pending' END,
  p."provider_reversal_id", p."reversal_attempts",
  CASE WHEN p."reversal_attempts" > 0 THEN p."reversal_requested_at" END,
  CASE WHEN p."reversal_attempts" > 0 THEN p."updated_at" END,
  CASE WHEN p."status" = 'paid' THEN p."last_error" END,
  p."reversed_at", p."reversal_requested_at", p."updated_at"
FROM "payouts" p
WHERE p."reversal_requested_at" IS NOT NULL AND p."status" IN ('paid', 'reversed', 'pending') AND p."amount" > 0;--> statement-breakpoint
-- A payout cancelled before it went out was taken back whole: its amount becomes a cancelled reversal row, the payout keeps 0.
INSERT INTO "payout_reversals" ("payout_id", "refund_id", "amount", "status", "created_at", "updated_at")
SELECT p."id", (SELECT r."id" FROM "refunds" r WHERE r."order_id" = p."order_id" ORDER BY r."created_at" LIMIT 1), p."amount", 'cancelled', p."updated_at", p."updated_at"
FROM "payouts" p
WHERE p."status" = 'cancelled' AND p."amount" > 0;--> statement-breakpoint
UPDATE "payouts" SET "amount" = 0 WHERE "status" = 'cancelled';
