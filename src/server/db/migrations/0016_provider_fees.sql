-- The provider's processing fee of each charged payment (docs/decisions/0018-money-against-stripe.md); written by hand, matching schema.ts.
-- Null until the provider has told it (Stripe: the fee of the charge's balance transaction, which can come later than the charge).
ALTER TABLE "payments" ADD COLUMN "provider_fee" numeric(10, 2);--> statement-breakpoint
CREATE INDEX "payments_fee_unknown_idx" ON "payments" USING btree ("processed_at","id") WHERE "payments"."processed_at" IS NOT NULL AND "payments"."provider_fee" IS NULL AND "payments"."provider_charge_id" IS NOT NULL;
