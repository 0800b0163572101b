-- pg_trgm (a trusted contrib extension since PostgreSQL 13; PGlite loads it in db/client.ts) backs the name search index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "products_seller_idx";--> statement-breakpoint
DROP INDEX "products_available_category_idx";--> statement-breakpoint
CREATE INDEX "addresses_primary_location_idx" ON "addresses" USING btree ("latitude","longitude","user_id") WHERE "addresses"."is_primary" and "addresses"."latitude" is not null and "addresses"."longitude" is not null;--> statement-breakpoint
CREATE INDEX "products_seller_created_idx" ON "products" USING btree ("seller_id","created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "products_available_created_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id") WHERE "products"."available";--> statement-breakpoint
CREATE INDEX "products_available_category_created_idx" ON "products" USING btree ("category","created_at" DESC NULLS FIRST,"id") WHERE "products"."available";--> statement-breakpoint
CREATE INDEX "products_available_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops) WHERE "products"."available";