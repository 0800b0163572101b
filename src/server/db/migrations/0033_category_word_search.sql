-- A word in a category (docs/decisions/0030-ten-times-the-data.md, A word in a category): the category
-- and the name of each product on sale in one trigram entry, so that a word and a category that seldom or never meet
-- are found through the index rather than by walking every product of the category.
CREATE INDEX "products_on_sale_category_name_trgm_idx" ON "products" USING gin (("category" || ' ' || "name") gin_trgm_ops) WHERE "products"."on_sale";