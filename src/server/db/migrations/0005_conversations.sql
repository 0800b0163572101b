-- Conversations, reviews and live updates (docs/rules/selling.md, Reviews and messages; docs/rules/live-updates.md, Live updates); written by hand, matching schema.ts.
-- How far each party has read an order's conversation and a product conversation: the unread counts of the header.
CREATE TABLE "order_message_reads" (
	"user_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_message_reads_pk" PRIMARY KEY("user_id","order_id")
);
--> statement-breakpoint
ALTER TABLE "order_message_reads" ADD CONSTRAINT "order_message_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_message_reads" ADD CONSTRAINT "order_message_reads_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "product_message_reads" (
	"user_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "product_message_reads_pk" PRIMARY KEY("user_id","product_id","buyer_id")
);
--> statement-breakpoint
ALTER TABLE "product_message_reads" ADD CONSTRAINT "product_message_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_message_reads" ADD CONSTRAINT "product_message_reads_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_message_reads" ADD CONSTRAINT "product_message_reads_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A buyer's conversations (the seller's have product_messages_seller_idx).
CREATE INDEX "product_messages_buyer_idx" ON "product_messages" USING btree ("buyer_id","created_at");--> statement-breakpoint
-- A message has at most 2,000 characters (the server checks first, with a message per field).
ALTER TABLE "messages" ADD CONSTRAINT "messages_content_length_check" CHECK (length("messages"."content") <= 2000);--> statement-breakpoint
ALTER TABLE "product_messages" ADD CONSTRAINT "product_messages_content_length_check" CHECK (length("product_messages"."content") <= 2000);--> statement-breakpoint
-- The events of GET /api/events, kept an hour for browsers that reconnect with Last-Event-ID; every app instance hears them through NOTIFY "live_events".
CREATE TABLE "live_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"audience" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"for_drivers" boolean DEFAULT false NOT NULL,
	"trailer_only" boolean DEFAULT false NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "live_events_created_idx" ON "live_events" USING btree ("created_at");
