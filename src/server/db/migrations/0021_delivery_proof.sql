-- Proof of delivery (docs/rules/deliveries.md, Deliveries; docs/rules/admin.md, Admin); written by hand, matching schema.ts.
CREATE TABLE "delivery_proof_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"standard_photo" boolean DEFAULT true NOT NULL,
	"standard_code" boolean DEFAULT false NOT NULL,
	"trailer_photo" boolean DEFAULT true NOT NULL,
	"trailer_code" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_proof_settings_singleton" CHECK ("delivery_proof_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_code_confirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_code_wrong_tries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_code_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "drop_off_photo_url" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "drop_off_latitude" numeric(10, 7);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "drop_off_longitude" numeric(10, 7);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_drop_off_place_check" CHECK (("orders"."drop_off_latitude" is null) = ("orders"."drop_off_longitude" is null) and coalesce("orders"."drop_off_latitude", 0) between -90 and 90 and coalesce("orders"."drop_off_longitude", 0) between -180 and 180);--> statement-breakpoint
-- Orders a driver still has to deliver get their code now (new ones get it when placed); the digits
-- come from gen_random_uuid, a strong random source.
UPDATE "orders" SET "delivery_code" = lpad((abs(('x' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 8))::bit(32)::bigint) % 10000)::text, 4, '0')
	WHERE "delivery_code" is null and not "is_pickup" and not "seller_delivery" and "status" in ('pending', 'assigned', 'in-transit');--> statement-breakpoint
ALTER TABLE "admin_actions" DROP CONSTRAINT "admin_actions_action_check";--> statement-breakpoint
ALTER TABLE "admin_actions" ADD CONSTRAINT "admin_actions_action_check" CHECK ("admin_actions"."action" in ('user.role_changed','driver.approved','driver.rejected','driver.revoked','category.created','category.renamed','category.deleted','commission.updated','order.cancelled','order.refunded','user.role_removed','user.suspended','user.restored','product.hidden','product.restored','payout.retried','delivery_proof.updated'));
