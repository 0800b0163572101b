import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** A selected field as drizzle's prepared query keeps it: where it goes in the row, what reads it. */
interface SelectedField {
  path: string[];
  field: unknown;
}

/** What a prepared query of drizzle holds to map its rows (its own fields, not in its types). */
interface PreparedRows {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/**
 * drizzle's mapping of a row (`mapResultRow` in drizzle-orm/utils.js), with what it works out for
 * every column of every row (which decoder reads it, which joined table it comes from) worked out
 * once: on the checkout's reads of 30 to 50 columns that work was a tenth of the server's time
 * spent on the database (docs/decisions/0025-checkout-statements.md, Columns read). The result is
 * the same: nested objects by path, and an object of a left-joined table null when its first column
 * is (drizzle's rule).
 */
function compiledRowMapper(
  fields: readonly SelectedField[],
  joinsNotNullableMap: Record<string, boolean> | undefined,
) {
  const columns = fields.map(({ path, field }) => {
    // drizzle keeps an SQL's decoder without declaring it in its types.
    const decoderOf = (value: unknown) => (value as { decoder: Decoder }).decoder;
    const decoder: Decoder = is(field, Column)
      ? field
      : is(field, SQL)
        ? decoderOf(field)
        : is(field, Subquery)
          ? decoderOf(field._.sql)
          : decoderOf((field as { sql: unknown }).sql);
    const table =
      joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : undefined;
    return { path, last: path[path.length - 1] as string, decoder, table };
  });
  return (rows: unknown[][]) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      let nullify: Record<string, string | false> | undefined;
      for (let i = 0; i < columns.length; i++) {
        const { path, last, decoder, table } = columns[i]!;
        let node = result;
        for (let j = 0; j < path.length - 1; j++) {
          const chunk = path[j]!;
          if (!(chunk in node)) node[chunk] = {};
          node = node[chunk] as Record<string, unknown>;
        }
        const raw = row[i];
        const value = raw === null ? null : decoder.mapFromDriverValue(raw);
        node[last] = value;
        if (table !== undefined) {
          nullify ??= {};
          const objectName = path[0]!;
          if (!(objectName in nullify)) nullify[objectName] = value === null ? table : false;
          else if (typeof nullify[objectName] === 'string' && nullify[objectName] !== table)
            nullify[objectName] = false;
        }
      }
      if (nullify && joinsNotNullableMap)
        for (const objectName in nullify) {
          const tableName = nullify[objectName];
          if (typeof tableName === 'string' && !joinsNotNullableMap[tableName]) result[objectName] = null;
        }
      return result;
    });
}

/** Gives a prepared select (or a statement returning rows) the compiled mapping of its rows. */
function withCompiledRows<T extends object>(query: T): T {
  const prepared = query as PreparedRows;
  if (Array.isArray(prepared.fields) && prepared.customResultMapper === undefined)
    prepared.customResultMapper = compiledRowMapper(prepared.fields, prepared.joinsNotNullableMap);
  return query;
}

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
        const query = withCompiledRows(build(db));
        if ('client' in query) built.set(session.constructor, query);
        return query;
      }
      const query = Object.create(template) as T & TransactionSession;
      query.client = session.client;
      return query;
    }
    let query = built.get(db);
    if (query === undefined) {
      query = withCompiledRows(build(db));
      built.set(db, query);
    }
    return query;
  };
}
