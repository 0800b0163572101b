-- Sellers passed over, and the sellers of a word (docs/decisions/0030-ten-times-the-data.md): the keys of the words
-- of each seller's products, so the nearest-first search of a word reads only the sellers whose words hold all of
-- its keys, or passes over the others without reading their products. Kept in the same transaction as each insert
-- or rename of a product. The keys only grow: a superset is safe (a seller is read for nothing), and two
-- transactions adding to one seller's keys cannot lose either's; a product hidden, deleted or renamed away leaves
-- its keys.
CREATE TABLE "seller_word_keys" (
	"seller_id" uuid PRIMARY KEY NOT NULL,
	"keys" text[] NOT NULL
);--> statement-breakpoint
-- The trigrams of three ASCII letters or digits inside a word, as category_word_keys (migration 0039) without the
-- category: those of a searched word are among those of every name that contains it.
CREATE FUNCTION "word_keys"(words text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path FROM CURRENT
  AS $$ SELECT array(SELECT t FROM unnest(show_trgm(words)) t WHERE length(t) = 3 AND position(' ' IN t) = 0) $$;--> statement-breakpoint
-- Adds the keys of the products inserted or renamed to their sellers' keys: one upsert for each seller, in the
-- sellers' order (two statements never wait on each other's sellers crosswise). A seller whose keys already hold
-- them all is found by a plain read and left as is, without the upsert's lock on their row.
CREATE FUNCTION "add_seller_word_keys"() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT
  AS $$
BEGIN
	IF TG_LEVEL = 'STATEMENT' THEN
		INSERT INTO "seller_word_keys" ("seller_id", "keys")
			SELECT "added"."seller_id", "added"."keys" FROM (
				SELECT "seller_id", array_agg(DISTINCT "k" ORDER BY "k") AS "keys"
				FROM new_rows CROSS JOIN LATERAL unnest(word_keys("search_name")) "k"
				GROUP BY "seller_id"
			) "added"
			WHERE NOT EXISTS (
				SELECT FROM "seller_word_keys" "held" WHERE "held"."seller_id" = "added"."seller_id" AND "held"."keys" @> "added"."keys"
			)
			ORDER BY "added"."seller_id"
		ON CONFLICT ("seller_id") DO UPDATE
			SET "keys" = (SELECT array_agg(DISTINCT "k" ORDER BY "k") FROM unnest("seller_word_keys"."keys" || excluded."keys") "k")
			WHERE NOT "seller_word_keys"."keys" @> excluded."keys";
	ELSIF cardinality(word_keys(NEW."search_name")) > 0 AND NOT EXISTS (
		SELECT FROM "seller_word_keys" "held"
		WHERE "held"."seller_id" = NEW."seller_id" AND "held"."keys" @> word_keys(NEW."search_name")
	) THEN
		INSERT INTO "seller_word_keys" ("seller_id", "keys") VALUES (NEW."seller_id", word_keys(NEW."search_name"))
		ON CONFLICT ("seller_id") DO UPDATE
			SET "keys" = (SELECT array_agg(DISTINCT "k" ORDER BY "k") FROM unnest("seller_word_keys"."keys" || excluded."keys") "k")
			WHERE NOT "seller_word_keys"."keys" @> excluded."keys";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_seller_word_keys_insert" AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION "add_seller_word_keys"();--> statement-breakpoint
-- A rename or a change of seller, row by row: a change of stock, price or availability does not run it at all.
CREATE TRIGGER "products_seller_word_keys_rename" AFTER UPDATE ON "products"
	FOR EACH ROW WHEN (OLD."search_name" IS DISTINCT FROM NEW."search_name" OR OLD."seller_id" IS DISTINCT FROM NEW."seller_id")
	EXECUTE FUNCTION "add_seller_word_keys"();--> statement-breakpoint
INSERT INTO "seller_word_keys" ("seller_id", "keys")
	SELECT "seller_id", array_agg(DISTINCT "k" ORDER BY "k")
	FROM "products" CROSS JOIN LATERAL unnest(word_keys("search_name")) "k"
	GROUP BY "seller_id";--> statement-breakpoint
-- The sellers of a word, found from its keys.
CREATE INDEX "seller_word_keys_keys_idx" ON "seller_word_keys" USING gin ("keys");--> statement-breakpoint
-- Statistics for the planner: the new table's, and the products' expression index of migration 0039 (the embedded
-- database has no autovacuum to gather them).
ANALYZE "seller_word_keys";--> statement-breakpoint
ANALYZE "products";
