-- A driver's offers, nearest pickup first, read ring by ring (docs/decisions/0030-ten-times-the-data.md,
-- A driver's offers in rings): every placed address by place (with its id, so a ring is read from the index
-- alone), and the offered orders by pickup address, carrying requires_trailer (drizzle's index builder cannot say
-- INCLUDE; schema.ts names the same columns).
CREATE INDEX "addresses_location_idx" ON "addresses" USING btree ("latitude","longitude","id") WHERE "addresses"."latitude" is not null and "addresses"."longitude" is not null;--> statement-breakpoint
CREATE INDEX "orders_available_pickup_idx" ON "orders" USING btree ("pickup_address_id","created_at","id") INCLUDE ("requires_trailer") WHERE "orders"."status" = 'pending' and "orders"."driver_id" is null and not "orders"."is_pickup" and not "orders"."seller_delivery";