-- Names lower-cased once (docs/decisions/0030-ten-times-the-data.md, Names lower-cased once): a search
-- compares `search_name like lower(pattern)`, which is what `name ilike pattern` computes (ILIKE lower-cases
-- both sides, then matches as LIKE), without lower-casing every name it tests.
DROP INDEX "products_name_trgm_idx";--> statement-breakpoint
DROP INDEX "products_created_idx";--> statement-breakpoint
-- The indexes that carried the name go before the column is added, so the table's rewrite does not rebuild them.
DROP INDEX "products_available_created_idx";--> statement-breakpoint
DROP INDEX "products_available_category_created_idx";--> statement-breakpoint
DROP INDEX "products_available_seller_created_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_name" text GENERATED ALWAYS AS (lower(name)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "products_search_name_trgm_idx" ON "products" USING gin ("search_name" gin_trgm_ops);--> statement-breakpoint
-- Every product newest first, in the admin list's order, and the catalog's indexes carry the lower-cased name
-- (instead of the name; drizzle's index builder cannot say INCLUDE; schema.ts names the same columns).
CREATE INDEX "products_created_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id") INCLUDE ("search_name");--> statement-breakpoint
CREATE INDEX "products_available_created_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id") INCLUDE ("search_name") WHERE "products"."on_sale";--> statement-breakpoint
CREATE INDEX "products_available_category_created_idx" ON "products" USING btree ("category","created_at" DESC NULLS FIRST,"id") INCLUDE ("search_name") WHERE "products"."on_sale";--> statement-breakpoint
CREATE INDEX "products_available_seller_created_idx" ON "products" USING btree ("seller_id","created_at" DESC NULLS FIRST,"id") INCLUDE ("search_name") WHERE "products"."on_sale";--> statement-breakpoint
-- The new column's statistics, for the planner's estimate of a search (autovacuum would wait for changes).
ANALYZE "products";
