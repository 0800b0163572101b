-- Mail and push leave through a durable queue (docs/decisions/0019-reaching-people.md); written by hand, matching schema.ts.
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "outbox_channel_check" CHECK ("outbox"."channel" in ('mail','push')),
	CONSTRAINT "outbox_status_check" CHECK ("outbox"."status" in ('queued','sent','failed','dropped'))
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at","id") WHERE "outbox"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "outbox_channel_created_idx" ON "outbox" USING btree ("channel","created_at");--> statement-breakpoint
-- Each live event is looked at once by the notifications dispatcher; the events already there are not.
ALTER TABLE "live_events" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
UPDATE "live_events" SET "dispatched_at" = now();--> statement-breakpoint
CREATE INDEX "live_events_undispatched_idx" ON "live_events" USING btree ("id") WHERE "live_events"."dispatched_at" IS NULL;
