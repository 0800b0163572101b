-- offer_places: the pickup place of every order offered to drivers whose pickup address has one
-- (docs/decisions/0030-ten-times-the-data.md, Offers by their own place), kept by row triggers in the same
-- transaction as the change: an order placed as an offer, a change that makes it an offer or not (status,
-- driver, how it is delivered, its pickup address, the trailer, its time), and a move of its pickup address. A
-- driver's offers, nearest pickup first, are read ring by ring from this table's index alone.
-- Both triggers lock the pickup address before they read the other's rows: an order's change takes it for key
-- share (the lock its foreign key's check already takes when an order is placed, so a checkout takes no new
-- lock), the address's move takes it for update, which waits for every transaction holding it for key share
-- and is waited for by every later one. Two changes of one pickup's offers at once are so taken one after the
-- other, and neither waits for an order the other holds (no deadlock): an order placed, made an offer or no
-- offer while its pickup moves is kept from the place and the offer state of whichever committed last. An order's
-- change holds its own row before the address, so deleting an address (whose foreign key sets its orders' pickup
-- to none) locks those orders first (src/server/modules/addresses/addresses.queries.ts, deleteAddressOfUser).
-- The offer rule's four conditions are written out here as in src/server/db/sql-offers.ts; the rings' property
-- test (offers-in-rings.test.ts) compares the offers read from this table with the rule's own.
CREATE TABLE "offer_places" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"latitude" numeric(10, 7) NOT NULL,
	"longitude" numeric(10, 7) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"requires_trailer" boolean NOT NULL
);
--> statement-breakpoint
-- The offers no longer read every placed address (migration 0035's index).
DROP INDEX "addresses_location_idx";--> statement-breakpoint
ALTER TABLE "offer_places" ADD CONSTRAINT "offer_places_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offer_places_location_idx" ON "offer_places" USING btree ("latitude","longitude","created_at","order_id") INCLUDE ("requires_trailer");--> statement-breakpoint
-- An order placed or changed: its row while it is an offer with a placed pickup, none otherwise. The condition
-- is the offer rule's first four (src/server/db/sql-offers.ts), as orders_available_idx holds them.
CREATE FUNCTION "keep_offer_place"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"place_latitude" numeric(10, 7);
	"place_longitude" numeric(10, 7);
BEGIN
	IF NEW."pickup_address_id" IS NOT NULL OR TG_OP = 'UPDATE' AND OLD."pickup_address_id" IS NOT NULL THEN
		-- Waits for a move of the pickup (the old one too, when it changes) being committed; the read after it, a
		-- statement of its own, sees the move (a row locked for key share is the version the statement's snapshot saw,
		-- not one a move made since). Both in id order.
		PERFORM FROM "addresses"
		WHERE "id" = NEW."pickup_address_id" OR TG_OP = 'UPDATE' AND "id" = OLD."pickup_address_id"
		ORDER BY "id" FOR KEY SHARE;
	END IF;
	IF NEW."pickup_address_id" IS NOT NULL THEN
		SELECT "latitude", "longitude" INTO "place_latitude", "place_longitude"
		FROM "addresses" WHERE "id" = NEW."pickup_address_id";
	END IF;
	IF NEW."status" = 'pending' AND NEW."driver_id" IS NULL AND NOT NEW."is_pickup" AND NOT NEW."seller_delivery"
		AND "place_latitude" IS NOT NULL AND "place_longitude" IS NOT NULL THEN
		INSERT INTO "offer_places" ("order_id", "latitude", "longitude", "created_at", "requires_trailer")
		VALUES (NEW."id", "place_latitude", "place_longitude", NEW."created_at", NEW."requires_trailer")
		ON CONFLICT ("order_id") DO UPDATE SET "latitude" = excluded."latitude", "longitude" = excluded."longitude",
			"created_at" = excluded."created_at", "requires_trailer" = excluded."requires_trailer";
	ELSIF TG_OP = 'UPDATE' THEN
		DELETE FROM "offer_places" WHERE "order_id" = NEW."id";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_offer_place_placed" AFTER INSERT ON "orders" FOR EACH ROW
	WHEN (NEW."status" = 'pending' AND NEW."driver_id" IS NULL AND NOT NEW."is_pickup" AND NOT NEW."seller_delivery"
		AND NEW."pickup_address_id" IS NOT NULL)
	EXECUTE FUNCTION "keep_offer_place"();--> statement-breakpoint
-- Only a change of what the row holds, and only of an order that is or was an offer: an order on its way,
-- delivered or cancelled and staying so runs nothing.
CREATE TRIGGER "orders_offer_place_changed" AFTER UPDATE OF "status", "driver_id", "is_pickup", "seller_delivery",
	"pickup_address_id", "requires_trailer", "created_at" ON "orders" FOR EACH ROW
	WHEN ((OLD."status" = 'pending' AND OLD."driver_id" IS NULL AND NOT OLD."is_pickup" AND NOT OLD."seller_delivery"
		OR NEW."status" = 'pending' AND NEW."driver_id" IS NULL AND NOT NEW."is_pickup" AND NOT NEW."seller_delivery")
		AND (OLD."status", OLD."driver_id", OLD."is_pickup", OLD."seller_delivery", OLD."pickup_address_id",
			OLD."requires_trailer", OLD."created_at") IS DISTINCT FROM (NEW."status", NEW."driver_id", NEW."is_pickup",
			NEW."seller_delivery", NEW."pickup_address_id", NEW."requires_trailer", NEW."created_at"))
	EXECUTE FUNCTION "keep_offer_place"();--> statement-breakpoint
-- A pickup address moved, placed or unplaced: the offers picked up there follow it (read by
-- orders_available_pickup_idx, the offers by pickup address).
CREATE FUNCTION "move_offer_places"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- Waits for the orders being placed or changed with this pickup to commit; the statements below then see them.
	PERFORM FROM "addresses" WHERE "id" = NEW."id" FOR UPDATE;
	IF NEW."latitude" IS NULL OR NEW."longitude" IS NULL THEN
		DELETE FROM "offer_places" WHERE "order_id" IN (
			SELECT "id" FROM "orders" WHERE "pickup_address_id" = NEW."id" AND "status" = 'pending'
				AND "driver_id" IS NULL AND NOT "is_pickup" AND NOT "seller_delivery");
	ELSE
		INSERT INTO "offer_places" ("order_id", "latitude", "longitude", "created_at", "requires_trailer")
		SELECT "id", NEW."latitude", NEW."longitude", "created_at", "requires_trailer" FROM "orders"
		WHERE "pickup_address_id" = NEW."id" AND "status" = 'pending' AND "driver_id" IS NULL AND NOT "is_pickup"
			AND NOT "seller_delivery"
		ORDER BY "id"
		ON CONFLICT ("order_id") DO UPDATE SET "latitude" = excluded."latitude", "longitude" = excluded."longitude";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "addresses_offer_places_moved" AFTER UPDATE OF "latitude", "longitude" ON "addresses" FOR EACH ROW
	WHEN (OLD."latitude" IS DISTINCT FROM NEW."latitude" OR OLD."longitude" IS DISTINCT FROM NEW."longitude")
	EXECUTE FUNCTION "move_offer_places"();--> statement-breakpoint
INSERT INTO "offer_places" ("order_id", "latitude", "longitude", "created_at", "requires_trailer")
SELECT o."id", a."latitude", a."longitude", o."created_at", o."requires_trailer"
FROM "orders" o JOIN "addresses" a ON a."id" = o."pickup_address_id"
WHERE o."status" = 'pending' AND o."driver_id" IS NULL AND NOT o."is_pickup" AND NOT o."seller_delivery"
	AND a."latitude" IS NOT NULL AND a."longitude" IS NOT NULL;
