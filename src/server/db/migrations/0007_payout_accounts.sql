-- Payout accounts of sellers and drivers (docs/rules/money.md, Payout accounts); written by hand, matching schema.ts.
-- The provider's account flags as last read, so the dashboard can show them when the provider is unreachable.
ALTER TABLE "users" ADD COLUMN "charges_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "payouts_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_stripe_account_status_check" CHECK ("users"."stripe_account_status" is null or "users"."stripe_account_status" in ('active','pending','restricted'));--> statement-breakpoint
-- A connected account belongs to one user; the webhook finds the user by it.
CREATE UNIQUE INDEX "users_stripe_account_unique" ON "users" USING btree ("stripe_account_id") WHERE "users"."stripe_account_id" IS NOT NULL;--> statement-breakpoint
-- The built-in test provider's simulated connected accounts: one per user, in the state its onboarding page left it.
CREATE TABLE "test_payout_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"state" text DEFAULT 'incomplete' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_payout_accounts_state_check" CHECK ("test_payout_accounts"."state" in ('incomplete','complete','restricted'))
);--> statement-breakpoint
ALTER TABLE "test_payout_accounts" ADD CONSTRAINT "test_payout_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "test_payout_accounts_user_unique" ON "test_payout_accounts" USING btree ("user_id");
