-- More public answers kept (docs/decisions/0015-catalog-and-checkout-throughput.md, Every public read kept): a product
-- page shows its extra images, and a seller's pickup slots come from their weekly schedule, their blackout dates and
-- whether they may offer pickups (their roles; a suspended user has none). Each of these changes now sends the
-- NOTIFY "catalog_changed" of migration 0010, so every instance drops its kept answers.
CREATE TRIGGER "product_images_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_images" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
CREATE TRIGGER "availability_schedules_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "availability_schedules" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
CREATE TRIGGER "blackout_dates_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "blackout_dates" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
CREATE TRIGGER "users_roles_catalog_changed" AFTER UPDATE OF "role", "roles", "withheld_roles", "suspended_at" ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();
