import type { SQL } from 'drizzle-orm';

/**
 * The rows of a raw statement run on a database handle or a transaction. The project's `Db` type
 * leaves the driver's result open; both drivers here are pg (node-postgres, or the embedded
 * database through its socket), whose result carries `rows`.
 */
export async function rowsOf<T>(
  db: { execute: (query: SQL) => PromiseLike<unknown> },
  query: SQL,
): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}
