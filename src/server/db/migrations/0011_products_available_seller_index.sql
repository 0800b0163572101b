-- The distance query walks each near seller's available products newest first (docs/decisions/0015-catalog-and-checkout-throughput.md):
-- with only available rows in the index, in the list's order, the walk reads them in order and needs neither the table's
-- availability check nor a sort. products_seller_created_idx stays for the sellers' own lists (every product).
CREATE INDEX "products_available_seller_created_idx" ON "products" USING btree ("seller_id","created_at" DESC NULLS FIRST,"id") WHERE "products"."available";
