-- Web Push (docs/decisions/0019-reaching-people.md, Push and the installable app); written by hand, matching schema.ts.
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"device_label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_unique" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"offers" boolean DEFAULT true NOT NULL,
	"new_orders" boolean DEFAULT true NOT NULL,
	"order_status" boolean DEFAULT true NOT NULL,
	"arrival_times" boolean DEFAULT true NOT NULL,
	"messages" boolean DEFAULT true NOT NULL,
	"quiet_start_minute" integer,
	"quiet_end_minute" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_quiet_check" CHECK (("notification_preferences"."quiet_start_minute" is null) = ("notification_preferences"."quiet_end_minute" is null) and coalesce("notification_preferences"."quiet_start_minute", 0) between 0 and 1439 and coalesce("notification_preferences"."quiet_end_minute", 0) between 0 and 1439)
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
