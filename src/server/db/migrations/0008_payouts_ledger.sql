-- Transfers on completion and the ledger (docs/decisions/0013-money-movement.md, Transfers and the ledger); written by hand, matching schema.ts.
-- A payout is owed (the party's account is not ready), pending (to be transferred), paid, failed (the provider refused), reversed (a refund took it back) or cancelled (refunded before it went out).
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_status_check";--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" in ('owed','pending','paid','failed','reversed','cancelled'));--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "currency" text DEFAULT 'usd' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "last_error" text;--> statement-breakpoint
-- A worker calling the provider holds the payout until then; one that died mid-call leaves it to the retry job afterwards.
ALTER TABLE "payouts" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reversal_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reversal_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "provider_reversal_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_attempts_check" CHECK ("payouts"."attempts" >= 0 and "payouts"."reversal_attempts" >= 0);--> statement-breakpoint
-- The retry job's work list: payouts to transfer and paid ones whose reversal was asked for.
CREATE INDEX "payouts_unfinished_idx" ON "payouts" USING btree ("created_at","id") WHERE "payouts"."status" in ('owed','pending') OR ("payouts"."status" = 'paid' AND "payouts"."reversal_requested_at" IS NOT NULL);--> statement-breakpoint
-- Every movement of money, in the currency's minor units shown as numeric(10,2); append-only: a retry finds its entry_key taken and writes nothing.
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_key" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"payment_id" uuid,
	"order_id" uuid,
	"user_id" uuid,
	"refund_id" uuid,
	"payout_id" uuid,
	"provider_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('charge','refund','transfer','reversal','platform_fee','platform_fee_refund')),
	CONSTRAINT "ledger_entries_amount_check" CHECK ("ledger_entries"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_key_unique" ON "ledger_entries" USING btree ("entry_key");--> statement-breakpoint
CREATE INDEX "ledger_entries_order_idx" ON "ledger_entries" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_payment_idx" ON "ledger_entries" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_user_idx" ON "ledger_entries" USING btree ("user_id","created_at");--> statement-breakpoint
-- The database refuses to change or remove an entry, whoever asks.
CREATE FUNCTION "ledger_entries_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'ledger_entries is append-only' USING ERRCODE = '55000';
END
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ledger_entries_refuse_change"();--> statement-breakpoint
-- The built-in payout provider's transfers and reversals: rows of this database, one per idempotency key.
CREATE TABLE "test_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"transfer_id" text,
	"destination_account_id" text,
	"amount" numeric(10, 2) NOT NULL,
	"currency" text NOT NULL,
	"source_charge_id" text,
	"transfer_group" text,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_transfers_kind_check" CHECK ("test_transfers"."kind" in ('transfer','reversal')),
	CONSTRAINT "test_transfers_amount_check" CHECK ("test_transfers"."amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "test_transfers_key_unique" ON "test_transfers" USING btree ("kind","idempotency_key");--> statement-breakpoint
CREATE INDEX "test_transfers_group_idx" ON "test_transfers" USING btree ("transfer_group");
--> statement-breakpoint
-- An admin's full refund of a finished order goes to the audit trail.
ALTER TABLE "admin_actions" DROP CONSTRAINT "admin_actions_action_check";--> statement-breakpoint
ALTER TABLE "admin_actions" ADD CONSTRAINT "admin_actions_action_check" CHECK ("admin_actions"."action" in ('user.role_changed','driver.approved','driver.rejected','driver.revoked','category.created','category.renamed','category.deleted','commission.updated','order.cancelled','order.refunded'));--> statement-breakpoint
-- What happened before this migration. Payout rows written then (only the demo seed wrote any) never moved money: they are owed, and go out when the party's account is ready.
UPDATE "payouts" SET "status" = 'owed' WHERE "status" IN ('pending','paid') AND "provider_transfer_id" IS NULL;--> statement-breakpoint
-- Finished orders without payout rows owe their parties their stored earnings.
INSERT INTO "payouts" ("order_id","user_id","kind","amount","status","created_at","updated_at")
SELECT "id","seller_id",'seller',"seller_earnings",'owed',"updated_at","updated_at" FROM "orders"
WHERE "status" IN ('delivered','completed') AND "seller_earnings" > 0
ON CONFLICT ("order_id","kind") DO NOTHING;--> statement-breakpoint
INSERT INTO "payouts" ("order_id","user_id","kind","amount","status","created_at","updated_at")
SELECT "id","driver_id",'driver',"driver_earnings",'owed',"updated_at","updated_at" FROM "orders"
WHERE "status" IN ('delivered','completed') AND "driver_id" IS NOT NULL AND "driver_earnings" > 0
ON CONFLICT ("order_id","kind") DO NOTHING;--> statement-breakpoint
-- The ledger starts with the charges, refunds and fees already made, under the keys the code uses.
INSERT INTO "ledger_entries" ("entry_key","kind","amount","currency","payment_id","user_id","provider_reference","created_at")
SELECT 'charge:' || "id",'charge',"amount","currency","id","buyer_id","provider_payment_id",coalesce("processed_at","created_at") FROM "payments"
WHERE "processed_at" IS NOT NULL AND "amount" > 0
ON CONFLICT ("entry_key") DO NOTHING;--> statement-breakpoint
INSERT INTO "ledger_entries" ("entry_key","kind","amount","currency","payment_id","order_id","user_id","refund_id","provider_reference","created_at")
SELECT 'refund:' || r."id",'refund',r."amount",p."currency",r."payment_id",r."order_id",p."buyer_id",r."id",r."provider_refund_id",r."updated_at"
FROM "refunds" r JOIN "payments" p ON p."id" = r."payment_id"
WHERE r."status" = 'succeeded'
ON CONFLICT ("entry_key") DO NOTHING;--> statement-breakpoint
INSERT INTO "ledger_entries" ("entry_key","kind","amount","currency","payment_id","order_id","created_at")
SELECT 'platform_fee:' || o."id",'platform_fee',o."platform_fee",coalesce(p."currency",'usd'),o."payment_id",o."id",o."updated_at"
FROM "orders" o LEFT JOIN "payments" p ON p."id" = o."payment_id"
WHERE o."status" IN ('delivered','completed') AND o."platform_fee" > 0
ON CONFLICT ("entry_key") DO NOTHING;
