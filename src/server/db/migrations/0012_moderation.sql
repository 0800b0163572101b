-- Moderation (docs/rules/accounts.md, Moderation); written by hand like 0003 onwards.
-- A suspended user has no session and cannot sign in; an admin may hide a product, and a seller whose
-- role was taken away or who is suspended has their products hidden. `on_sale` is what the catalog and
-- the checkout read: available (not cancelled), not hidden, and its seller may sell. The catalog's
-- partial indexes hold the rows on sale, as they held the available ones.
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "withheld_roles" text[] DEFAULT ARRAY[]::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seller_hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "on_sale" boolean GENERATED ALWAYS AS (available and hidden_at is null and not seller_hidden) STORED NOT NULL;--> statement-breakpoint
DROP INDEX "products_available_seller_created_idx";--> statement-breakpoint
DROP INDEX "products_available_created_idx";--> statement-breakpoint
DROP INDEX "products_available_category_created_idx";--> statement-breakpoint
DROP INDEX "products_available_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "products_available_seller_created_idx" ON "products" USING btree ("seller_id","created_at" DESC NULLS FIRST,"id") WHERE "products"."on_sale";--> statement-breakpoint
CREATE INDEX "products_available_created_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id") WHERE "products"."on_sale";--> statement-breakpoint
CREATE INDEX "products_available_category_created_idx" ON "products" USING btree ("category","created_at" DESC NULLS FIRST,"id") WHERE "products"."on_sale";--> statement-breakpoint
CREATE INDEX "products_available_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops) WHERE "products"."on_sale";--> statement-breakpoint
ALTER TABLE "admin_actions" DROP CONSTRAINT "admin_actions_action_check";--> statement-breakpoint
ALTER TABLE "admin_actions" ADD CONSTRAINT "admin_actions_action_check" CHECK ("admin_actions"."action" in ('user.role_changed','driver.approved','driver.rejected','driver.revoked','category.created','category.renamed','category.deleted','commission.updated','order.cancelled','order.refunded','user.role_removed','user.suspended','user.restored','product.hidden','product.restored'));
