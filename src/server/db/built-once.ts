import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * A statement built once per database handle (drizzle's `prepare`, with `sql.placeholder` for what
 * varies): for the few statements that run on every checkout or signed-in request, where drizzle's
 * building of the text cost more of the server's time than the database's running it
 * (docs/decisions/0015-catalog-and-checkout-throughput.md, Checkout). A prepared query is bound to
 * the handle it was built on, so inside a transaction, whose handle is new each time, it is built
 * for that call, which costs what the unprepared query did.
 */
export function builtOnce<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    if (is(db, PgTransaction)) return build(db);
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
