-- A word in a category (docs/decisions/0030-ten-times-the-data.md, A word in a category): each trigram of a
-- product's lower-cased name keyed by its category ('Books:nov'), so the index answers a word and a category
-- together from that pair's own entries, where the trigram index of "category name" read every product of the
-- category for the category's trigrams. Only the trigrams show_trgm prints as three characters, none with padding
-- (a hashed multi-byte trigram prints as a number, or as the same three characters for the word and the name):
-- those of a searched word are then among those of every name that
-- contains it, so the keys only narrow what the LIKE condition decides. pg_trgm is found where it was when
-- this function was made (migration 0001).
CREATE FUNCTION "category_word_keys"(category text, words text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path FROM CURRENT
  AS $$ SELECT array(SELECT category || ':' || t FROM unnest(show_trgm(words)) t WHERE length(t) = 3 AND position(' ' IN t) = 0) $$;--> statement-breakpoint
DROP INDEX "products_on_sale_category_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "products_on_sale_category_word_keys_idx" ON "products" USING gin (category_word_keys("category", "search_name")) WHERE "products"."on_sale";
