-- Catalog change notices (docs/decisions/0015-catalog-and-checkout-throughput.md); written by hand, no table changes in schema.ts.
-- Every statement that changes what a public catalog answer shows (a product and its stock, a review behind a seller's
-- rating, a seller's name or place, a category) sends NOTIFY "catalog_changed" when its transaction commits, so every
-- app instance drops its cached catalog answers; PostgreSQL folds the notices of one transaction into one.
CREATE FUNCTION "notify_catalog_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('catalog_changed', '');
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
CREATE TRIGGER "reviews_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "reviews" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
CREATE TRIGGER "addresses_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "addresses" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
CREATE TRIGGER "categories_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();--> statement-breakpoint
-- A seller's name is on every card; other changes of a user (sign-in times, roles) are not.
CREATE TRIGGER "users_catalog_changed" AFTER UPDATE OF "first_name", "last_name" OR DELETE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalog_changed"();
