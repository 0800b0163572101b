import type pg from 'pg';

/**
 * Named (prepared) statements for the pg driver (docs/decisions/0028-checkout-throughput.md,
 * Prepared statements). A statement sent with a name is parsed, analysed and planned by the database
 * once per connection; later runs send only its parameters. drizzle sends every statement unnamed,
 * so this names, per pool, the data statements (select, insert, update, delete, with) whose text has
 * been sent before: one-off texts (the seed's bulk inserts, a list of ids of a new length) stay
 * unnamed, and at most {@link MAX_NAMED} texts are ever named, so each connection holds a bounded
 * number of prepared statements.
 */

/** The most texts one pool names; each of its connections prepares at most these. */
export const MAX_NAMED = 400;
/** The most distinct texts counted while looking for the repeated ones. */
const MAX_COUNTED = 5_000;
/** Longer texts are never named (a bulk insert, a long list of ids). */
const MAX_TEXT_LENGTH = 8_192;
const DATA_STATEMENT = /^\s*(?:select|insert|update|delete|with)\b/i;

export class StatementNames {
  /** Texts sent once so far: the second time, they are named. */
  private readonly seenOnce = new Set<string>();
  private readonly names = new Map<string, string>();

  /** The name to send `text` with, or undefined to send it unnamed. */
  nameOf(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined) return named;
    if (this.names.size >= MAX_NAMED || text.length > MAX_TEXT_LENGTH || !DATA_STATEMENT.test(text))
      return undefined;
    if (!this.seenOnce.has(text)) {
      if (this.seenOnce.size < MAX_COUNTED) this.seenOnce.add(text);
      return undefined;
    }
    this.seenOnce.delete(text);
    const name = `s${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}

type QueryConfigWithName = pg.QueryConfig & { name?: string };

/**
 * Makes `client` send the repeated data statements under their names. Called on each new connection
 * of a pool (its `connect` event); a statement the caller named itself keeps its name (drizzle's
 * `prepare('')` names none).
 */
export function nameStatementsOf(client: pg.ClientBase, names: StatementNames): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    if (config !== null && typeof config === 'object' && !('submit' in config)) {
      const named = config as QueryConfigWithName;
      if (!named.name && typeof named.text === 'string') {
        const name = names.nameOf(named.text);
        if (name !== undefined) return query({ ...named, name }, ...rest);
      }
    }
    return query(config, ...rest);
  };
}
