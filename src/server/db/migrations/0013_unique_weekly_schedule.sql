-- A weekly schedule holds each day and time range once (docs/rules/catalog-and-orders.md, Addresses, availability
-- and slots; docs/decisions/0006-pickup-slots.md); written by hand like 0003 onwards. Copies stored
-- before are removed first, keeping an active one over a paused one, else the first by id. The unique
-- index refuses a second copy even when two requests race, and serves the lookups by user and day the
-- index it replaces did.
DELETE FROM "availability_schedules" AS "copy" USING "availability_schedules" AS "kept" WHERE "copy"."user_id" = "kept"."user_id" AND "copy"."day_of_week" = "kept"."day_of_week" AND "copy"."start_time" = "kept"."start_time" AND "copy"."end_time" = "kept"."end_time" AND (("kept"."is_active" AND NOT "copy"."is_active") OR ("kept"."is_active" = "copy"."is_active" AND "kept"."id" < "copy"."id"));--> statement-breakpoint
DROP INDEX "availability_schedules_user_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "availability_schedules_user_day_times_unique" ON "availability_schedules" USING btree ("user_id","day_of_week","start_time","end_time");
