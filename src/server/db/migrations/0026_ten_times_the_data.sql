-- Ten times the data (docs/decisions/0030-ten-times-the-data.md, What changed): trigram indexes for
-- the admin's substring searches (products of any state, order numbers, users' emails and names), the name carried by
-- the catalog's newest-first indexes, and product_counts,
-- the products of each category and availability kept by triggers in the same transaction as the change, so no
-- total or summary counts a million rows. Statement triggers with transition tables: each statement adds its rows'
-- counts once, however many rows it changed; TRUNCATE empties the counts with the products.
CREATE TABLE "product_counts" (
	"category" text NOT NULL,
	"available" boolean NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_counts_category_available_pk" PRIMARY KEY("category","available")
);
--> statement-breakpoint
DROP INDEX "products_available_name_trgm_idx";--> statement-breakpoint
-- The catalog's newest-first walks (all, by category, by seller) carry the name: a search filters the index entries
-- without reading the table (drizzle's index builder cannot say INCLUDE; schema.ts names the same columns).
DROP INDEX "products_available_created_idx";--> statement-breakpoint
CREATE INDEX "products_available_created_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id") INCLUDE ("name") WHERE "products"."on_sale";--> statement-breakpoint
DROP INDEX "products_available_category_created_idx";--> statement-breakpoint
CREATE INDEX "products_available_category_created_idx" ON "products" USING btree ("category","created_at" DESC NULLS FIRST,"id") INCLUDE ("name") WHERE "products"."on_sale";--> statement-breakpoint
DROP INDEX "products_available_seller_created_idx";--> statement-breakpoint
CREATE INDEX "products_available_seller_created_idx" ON "products" USING btree ("seller_id","created_at" DESC NULLS FIRST,"id") INCLUDE ("name") WHERE "products"."on_sale";--> statement-breakpoint
CREATE INDEX "ledger_entries_fee_refund_idx" ON "ledger_entries" USING btree ("order_id") WHERE "ledger_entries"."kind" = 'platform_fee_refund';--> statement-breakpoint
CREATE INDEX "orders_number_trgm_idx" ON "orders" USING gin ("order_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin ((coalesce("first_name", '') || ' ' || coalesce("last_name", '')) gin_trgm_ops);;--> statement-breakpoint
CREATE FUNCTION "count_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- One upsert per statement, each key once, in key order (two statements never wait on each other's keys
	-- crosswise): a bulk insert of a million rows or the rename of a large category costs one pass over its rows.
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "product_counts" ("category", "available", "count")
			SELECT "category", "available", count(*)::int FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT ("category", "available") DO UPDATE SET "count" = "product_counts"."count" + excluded."count";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "product_counts" ("category", "available", "count")
			SELECT "category", "available", -count(*)::int FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT ("category", "available") DO UPDATE SET "count" = "product_counts"."count" + excluded."count";
	ELSE
		-- Only the rows whose category or availability changed; a change of stock or price moves nothing.
		INSERT INTO "product_counts" ("category", "available", "count")
			SELECT "category", "available", sum("n")::int FROM (
				SELECT o."category", o."available", -1 AS "n" FROM old_rows o JOIN new_rows n ON n."id" = o."id"
					WHERE o."category" IS DISTINCT FROM n."category" OR o."available" IS DISTINCT FROM n."available"
				UNION ALL
				SELECT n."category", n."available", 1 FROM old_rows o JOIN new_rows n ON n."id" = o."id"
					WHERE o."category" IS DISTINCT FROM n."category" OR o."available" IS DISTINCT FROM n."available"
			) "moved" GROUP BY 1, 2 HAVING sum("n") <> 0 ORDER BY 1, 2
		ON CONFLICT ("category", "available") DO UPDATE SET "count" = "product_counts"."count" + excluded."count";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "reset_product_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "product_counts";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_counted_insert" AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_products"();--> statement-breakpoint
CREATE TRIGGER "products_counted_delete" AFTER DELETE ON "products" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_products"();--> statement-breakpoint
CREATE TRIGGER "products_counted_update" AFTER UPDATE ON "products" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_products"();--> statement-breakpoint
CREATE TRIGGER "products_counts_truncated" AFTER TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "reset_product_counts"();--> statement-breakpoint
INSERT INTO "product_counts" ("category", "available", "count")
	SELECT "category", "available", count(*)::int FROM "products" GROUP BY "category", "available";
