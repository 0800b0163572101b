-- Private read notices name their table (docs/decisions/0029-signed-in-reads-kept.md, What is kept):
-- a change to orders, their items, refunds or disputes drops the kept lists of orders only, and the users of
-- sessions stay kept; a change to a session, a user or an address drops everything, as before.
CREATE OR REPLACE FUNCTION "notify_private_reads_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('private_reads_changed', TG_TABLE_NAME);
	RETURN NULL;
END
$$;
