-- Private read notices (docs/decisions/0029-signed-in-reads-kept.md, What is kept): on the embedded
-- database the app keeps the users of recent sessions and lists of own orders in memory. Every statement that changes or
-- deletes a session (a sign-out, an extension, a suspension ending them all) or a user (roles, suspension, names,
-- email), or changes what a list of orders shows (an order, its items, a refund, a dispute, a pickup address), sends
-- NOTIFY "private_reads_changed" when its transaction commits, and the app drops everything it kept.
CREATE FUNCTION "notify_private_reads_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('private_reads_changed', '');
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_private_reads_changed" AFTER UPDATE OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "notify_private_reads_changed"();--> statement-breakpoint
CREATE TRIGGER "users_private_reads_changed" AFTER UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_private_reads_changed"();--> statement-breakpoint
CREATE TRIGGER "orders_private_reads_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION "notify_private_reads_changed"();--> statement-breakpoint
CREATE TRIGGER "order_items_private_reads_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "order_items" FOR EACH STATEMENT EXECUTE FUNCTION "notify_private_reads_changed"();--> statement-breakpoint
CREATE TRIGGER "refunds_private_reads_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "refunds" FOR EACH STATEMENT EXECUTE FUNCTION "notify_private_reads_changed"();--> statement-breakpoint
CREATE TRIGGER "disputes_private_reads_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "disputes" FOR EACH STATEMENT EXECUTE FUNCTION "notify_private_reads_changed"();--> statement-breakpoint
CREATE TRIGGER "addresses_private_reads_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "addresses" FOR EACH STATEMENT EXECUTE FUNCTION "notify_private_reads_changed"();
