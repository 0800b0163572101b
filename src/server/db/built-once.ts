import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** What a transaction's handle holds: its session, whose client is the transaction's connection. */
interface TransactionSession {
  client: unknown;
}

/** The transaction's session; drizzle keeps it on the handle without declaring it in its types. */
function sessionOf(tx: Db): TransactionSession | undefined {
  const session = (tx as unknown as { session?: unknown }).session;
  return typeof session === 'object' && session !== null && 'client' in session
    ? (session as TransactionSession)
    : undefined;
}

/**
 * A statement built once (drizzle's `prepare`, with `sql.placeholder` for what varies): for the
 * statements that run on every checkout or signed-in request, where drizzle's building of the text
 * cost more of the server's time than the database's running it
 * (docs/decisions/0028-checkout-throughput.md, Statements built once).
 *
 * Outside a transaction it is built once per database handle. A prepared query runs on the client
 * it was built with (the pool), and a transaction's handle is new each time: so it is built once per
 * kind of session (the pg driver's, PGlite's), with the first transaction, and each later
 * transaction gets a copy of it that runs on that transaction's own connection. The copy shares the
 * text, the parameters and the mapping of the result; only its client differs.
 */
export function builtOnce<T extends object>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<object, T>();
  return (db) => {
    if (is(db, PgTransaction)) {
      const session = sessionOf(db);
      if (!session) return build(db);
      const template = built.get(session.constructor);
      if (template === undefined) {
        const query = build(db);
        if ('client' in query) built.set(session.constructor, query);
        return query;
      }
      const query = Object.create(template) as T & TransactionSession;
      query.client = session.client;
      return query;
    }
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
