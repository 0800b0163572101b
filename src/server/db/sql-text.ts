import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching any text that contains `text`, wildcards in it taken as plain text. */
export function likePattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/**
 * A product's name contains `text`, whatever the case (docs/rules/catalog-and-orders.md, Catalog and
 * distance), tested on the kept lower-cased name (`products.search_name`) with the pattern
 * lower-cased by the same function: what `name ilike pattern` computes (ILIKE lower-cases both
 * sides, then matches as LIKE), without lower-casing every name it tests
 * (docs/decisions/0030-ten-times-the-data.md, Names lower-cased once).
 */
export function nameContains(searchName: AnyColumn | SQL.Aliased | SQL, text: string): SQL {
  return sql`${searchName} like lower(${likePattern(text)})`;
}
