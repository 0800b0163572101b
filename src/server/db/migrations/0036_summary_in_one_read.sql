-- The admin summary in one read (docs/decisions/0030-ten-times-the-data.md, The summary in one read):
-- user_counts, how many users there are, and created_counts, the users, products and orders created in each
-- hour (whole hours since 1970, UTC) with the platform fees of the orders not cancelled, both kept by statement
-- triggers with transition tables in the same transaction as the change, as product_counts (migration 0026) and
-- order_totals (migration 0032) are: each statement adds its rows once, however many it changed, to its
-- connection's own rows (slot: the backend's pid modulo 8, as order_totals), so sign-ups, listings and checkouts
-- at once do not queue on one row; the readers sum the slots. TRUNCATE empties a table's figures with it.
-- users_drivers_queue_idx: the admin's drivers in the list's order, drivers only (docs/decisions/0030-ten-times-the-data.md,
-- The drivers' queue in an index): a page walks its first entries instead of sorting every driver.
CREATE TABLE "created_counts" (
	"kind" text NOT NULL,
	"hour" integer NOT NULL,
	"slot" integer NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"platform_fee" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "created_counts_kind_hour_slot_pk" PRIMARY KEY("kind","hour","slot")
);
--> statement-breakpoint
CREATE TABLE "user_counts" (
	"slot" integer PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "users_drivers_queue_idx" ON "users" USING btree ("is_verified",("vehicle_image_url" is not null and "license_image_url" is not null) desc,"documents_changed_at" DESC NULLS LAST,"created_at" DESC NULLS FIRST,"id") WHERE 'driver' = any("users"."roles");--> statement-breakpoint
CREATE FUNCTION "count_users"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"my_slot" integer := pg_backend_pid() % 8;
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "user_counts" ("slot", "count") SELECT "my_slot", count(*)::int FROM new_rows
		ON CONFLICT ("slot") DO UPDATE SET "count" = "user_counts"."count" + excluded."count";
	ELSE
		INSERT INTO "user_counts" ("slot", "count") SELECT "my_slot", -count(*)::int FROM old_rows
		ON CONFLICT ("slot") DO UPDATE SET "count" = "user_counts"."count" + excluded."count";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
-- Users and products: the rows created in each hour. One upsert per statement, each hour once, in hour order
-- (two statements never wait on each other's keys crosswise). Compiled once per table, so new_rows and old_rows
-- are that table's.
CREATE FUNCTION "count_created"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"my_slot" integer := pg_backend_pid() % 8;
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "created_counts" ("kind", "hour", "slot", "count")
			SELECT TG_TABLE_NAME, floor(extract(epoch FROM "created_at") / 3600)::int, "my_slot", count(*)::int
			FROM new_rows GROUP BY 2 ORDER BY 2
		ON CONFLICT ("kind", "hour", "slot") DO UPDATE SET "count" = "created_counts"."count" + excluded."count";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "created_counts" ("kind", "hour", "slot", "count")
			SELECT TG_TABLE_NAME, floor(extract(epoch FROM "created_at") / 3600)::int, "my_slot", -count(*)::int
			FROM old_rows GROUP BY 2 ORDER BY 2
		ON CONFLICT ("kind", "hour", "slot") DO UPDATE SET "count" = "created_counts"."count" + excluded."count";
	ELSE
		-- Only the rows whose creation time changed; any other change moves nothing.
		INSERT INTO "created_counts" ("kind", "hour", "slot", "count")
			SELECT TG_TABLE_NAME, "hour", "my_slot", sum("n")::int FROM (
				SELECT floor(extract(epoch FROM o."created_at") / 3600)::int AS "hour", -1 AS "n"
					FROM old_rows o JOIN new_rows n ON n."id" = o."id" WHERE o."created_at" IS DISTINCT FROM n."created_at"
				UNION ALL
				SELECT floor(extract(epoch FROM n."created_at") / 3600)::int, 1
					FROM old_rows o JOIN new_rows n ON n."id" = o."id" WHERE o."created_at" IS DISTINCT FROM n."created_at"
			) "moved" GROUP BY 2 HAVING sum("n") <> 0 ORDER BY 2
		ON CONFLICT ("kind", "hour", "slot") DO UPDATE SET "count" = "created_counts"."count" + excluded."count";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
-- Orders: the orders created in each hour, and the platform fees of those not cancelled.
CREATE FUNCTION "count_created_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"my_slot" integer := pg_backend_pid() % 8;
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "created_counts" ("kind", "hour", "slot", "count", "platform_fee")
			SELECT 'orders', floor(extract(epoch FROM "created_at") / 3600)::int, "my_slot", count(*)::int,
				coalesce(sum("platform_fee") FILTER (WHERE "status" <> 'cancelled'), 0)
			FROM new_rows GROUP BY 2 ORDER BY 2
		ON CONFLICT ("kind", "hour", "slot") DO UPDATE SET "count" = "created_counts"."count" + excluded."count",
			"platform_fee" = "created_counts"."platform_fee" + excluded."platform_fee";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "created_counts" ("kind", "hour", "slot", "count", "platform_fee")
			SELECT 'orders', floor(extract(epoch FROM "created_at") / 3600)::int, "my_slot", -count(*)::int,
				-coalesce(sum("platform_fee") FILTER (WHERE "status" <> 'cancelled'), 0)
			FROM old_rows GROUP BY 2 ORDER BY 2
		ON CONFLICT ("kind", "hour", "slot") DO UPDATE SET "count" = "created_counts"."count" + excluded."count",
			"platform_fee" = "created_counts"."platform_fee" + excluded."platform_fee";
	ELSE
		-- Only the rows whose creation time, status or fee changed; an assignment or a photo moves nothing.
		INSERT INTO "created_counts" ("kind", "hour", "slot", "count", "platform_fee")
			SELECT 'orders', "hour", "my_slot", sum("n")::int, sum("fee") FROM (
				SELECT floor(extract(epoch FROM o."created_at") / 3600)::int AS "hour", -1 AS "n",
					CASE WHEN o."status" <> 'cancelled' THEN -o."platform_fee" ELSE 0 END AS "fee"
					FROM old_rows o JOIN new_rows n ON n."id" = o."id"
					WHERE (o."created_at", o."status", o."platform_fee") IS DISTINCT FROM (n."created_at", n."status", n."platform_fee")
				UNION ALL
				SELECT floor(extract(epoch FROM n."created_at") / 3600)::int, 1,
					CASE WHEN n."status" <> 'cancelled' THEN n."platform_fee" ELSE 0 END
					FROM old_rows o JOIN new_rows n ON n."id" = o."id"
					WHERE (o."created_at", o."status", o."platform_fee") IS DISTINCT FROM (n."created_at", n."status", n."platform_fee")
			) "moved" GROUP BY 2 HAVING sum("n") <> 0 OR sum("fee") <> 0 ORDER BY 2
		ON CONFLICT ("kind", "hour", "slot") DO UPDATE SET "count" = "created_counts"."count" + excluded."count",
			"platform_fee" = "created_counts"."platform_fee" + excluded."platform_fee";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "reset_created_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_TABLE_NAME = 'users' THEN
		DELETE FROM "user_counts";
	END IF;
	DELETE FROM "created_counts" WHERE "kind" = TG_TABLE_NAME;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_counted_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_users"();--> statement-breakpoint
CREATE TRIGGER "users_counted_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_users"();--> statement-breakpoint
CREATE TRIGGER "users_created_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created"();--> statement-breakpoint
CREATE TRIGGER "users_created_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created"();--> statement-breakpoint
CREATE TRIGGER "users_created_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created"();--> statement-breakpoint
CREATE TRIGGER "users_created_truncated" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "reset_created_counts"();--> statement-breakpoint
CREATE TRIGGER "products_created_insert" AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created"();--> statement-breakpoint
CREATE TRIGGER "products_created_delete" AFTER DELETE ON "products" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created"();--> statement-breakpoint
CREATE TRIGGER "products_created_update" AFTER UPDATE ON "products" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created"();--> statement-breakpoint
CREATE TRIGGER "products_created_truncated" AFTER TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "reset_created_counts"();--> statement-breakpoint
CREATE TRIGGER "orders_created_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_created_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_created_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "count_created_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_created_truncated" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION "reset_created_counts"();--> statement-breakpoint
INSERT INTO "user_counts" ("slot", "count") SELECT 0, count(*)::int FROM "users";--> statement-breakpoint
INSERT INTO "created_counts" ("kind", "hour", "slot", "count")
	SELECT 'users', floor(extract(epoch FROM "created_at") / 3600)::int, 0, count(*)::int FROM "users" GROUP BY 2;--> statement-breakpoint
INSERT INTO "created_counts" ("kind", "hour", "slot", "count")
	SELECT 'products', floor(extract(epoch FROM "created_at") / 3600)::int, 0, count(*)::int FROM "products" GROUP BY 2;--> statement-breakpoint
INSERT INTO "created_counts" ("kind", "hour", "slot", "count", "platform_fee")
	SELECT 'orders', floor(extract(epoch FROM "created_at") / 3600)::int, 0, count(*)::int,
		coalesce(sum("platform_fee") FILTER (WHERE "status" <> 'cancelled'), 0) FROM "orders" GROUP BY 2;
