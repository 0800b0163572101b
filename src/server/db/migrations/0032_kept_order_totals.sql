-- The admin summary's order totals, kept (docs/decisions/0027-kept-order-totals.md, What is kept): the orders,
-- their platform fees and their totals by status, kept by statement triggers with transition tables in the same
-- transaction as the insert, delete or update, as product_counts is (migration 0026), so the summary reads a few
-- rows instead of summing every order. Each statement adds to its connection's own row of each status (slot: the
-- backend's pid modulo 8), so that checkouts placing orders at once do not queue on one row until they commit;
-- the summary sums the slots. TRUNCATE empties the totals with the orders. The orders' newest-first index carries
-- each order's status and platform fee (drizzle's index builder cannot say INCLUDE; schema.ts names the same
-- columns), so the summary's two weeks of orders are a range of it without reading the table
-- (docs/decisions/0027-kept-order-totals.md, The two weeks).
CREATE TABLE "order_totals" (
	"status" text NOT NULL,
	"slot" integer NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"platform_fee" numeric DEFAULT '0' NOT NULL,
	"total" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "order_totals_status_slot_pk" PRIMARY KEY("status","slot")
);
--> statement-breakpoint
DROP INDEX "orders_created_idx";--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at" DESC NULLS FIRST,"id") INCLUDE ("status","platform_fee");--> statement-breakpoint
CREATE FUNCTION "total_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"my_slot" integer := pg_backend_pid() % 8;
BEGIN
	-- One upsert per statement, each status once, in status order: a bulk insert costs one pass over its rows.
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "order_totals" ("status", "slot", "orders", "platform_fee", "total")
			SELECT "status", "my_slot", count(*)::int, sum("platform_fee"), sum("total") FROM new_rows GROUP BY 1 ORDER BY 1
		ON CONFLICT ("status", "slot") DO UPDATE SET "orders" = "order_totals"."orders" + excluded."orders",
			"platform_fee" = "order_totals"."platform_fee" + excluded."platform_fee",
			"total" = "order_totals"."total" + excluded."total";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "order_totals" ("status", "slot", "orders", "platform_fee", "total")
			SELECT "status", "my_slot", -count(*)::int, -sum("platform_fee"), -sum("total") FROM old_rows GROUP BY 1 ORDER BY 1
		ON CONFLICT ("status", "slot") DO UPDATE SET "orders" = "order_totals"."orders" + excluded."orders",
			"platform_fee" = "order_totals"."platform_fee" + excluded."platform_fee",
			"total" = "order_totals"."total" + excluded."total";
	ELSE
		-- Only the rows whose status, fee or total changed; an assignment or a photo moves nothing.
		INSERT INTO "order_totals" ("status", "slot", "orders", "platform_fee", "total")
			SELECT "status", "my_slot", sum("n")::int, sum("fee"), sum("amount") FROM (
				SELECT o."status", -1 AS "n", -o."platform_fee" AS "fee", -o."total" AS "amount"
					FROM old_rows o JOIN new_rows n ON n."id" = o."id"
					WHERE (o."status", o."platform_fee", o."total") IS DISTINCT FROM (n."status", n."platform_fee", n."total")
				UNION ALL
				SELECT n."status", 1, n."platform_fee", n."total"
					FROM old_rows o JOIN new_rows n ON n."id" = o."id"
					WHERE (o."status", o."platform_fee", o."total") IS DISTINCT FROM (n."status", n."platform_fee", n."total")
			) "moved" GROUP BY 1 HAVING sum("n") <> 0 OR sum("fee") <> 0 OR sum("amount") <> 0 ORDER BY 1
		ON CONFLICT ("status", "slot") DO UPDATE SET "orders" = "order_totals"."orders" + excluded."orders",
			"platform_fee" = "order_totals"."platform_fee" + excluded."platform_fee",
			"total" = "order_totals"."total" + excluded."total";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "reset_order_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "order_totals";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_totalled_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "total_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_totalled_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "total_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_totalled_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "total_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_totals_truncated" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION "reset_order_totals"();--> statement-breakpoint
INSERT INTO "order_totals" ("status", "slot", "orders", "platform_fee", "total")
	SELECT "status", 0, count(*)::int, sum("platform_fee"), sum("total") FROM "orders" GROUP BY "status";
