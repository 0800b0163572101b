-- Session change notices (docs/decisions/0015-catalog-and-checkout-throughput.md, Signed-in reads): on the embedded
-- database the app keeps the users of recent sessions in memory. Every statement that changes or deletes a session (a
-- sign-out, an extension, a suspension ending them all) or changes or deletes a user (roles, suspension, names, email)
-- sends NOTIFY "sessions_changed" when its transaction commits, and the app drops every kept user.
CREATE FUNCTION "notify_sessions_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('sessions_changed', '');
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_sessions_changed" AFTER UPDATE OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "notify_sessions_changed"();--> statement-breakpoint
CREATE TRIGGER "users_sessions_changed" AFTER UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "notify_sessions_changed"();
