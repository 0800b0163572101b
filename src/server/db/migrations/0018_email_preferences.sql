-- A user's mail switches (docs/decisions/0019-reaching-people.md, Mail); written by hand, matching schema.ts.
CREATE TABLE "email_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"offer_alerts" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_preferences" ADD CONSTRAINT "email_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_preferences_offer_alerts_idx" ON "email_preferences" USING btree ("user_id") WHERE "email_preferences"."offer_alerts" = true;
