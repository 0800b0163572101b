// A PostgreSQL database of its own for one benchmark run, made beside the others on the server of
// TEST_DATABASE_URL (shared by bench/catalog.bench.mjs, bench/checkout.bench.mjs and
// bench/scale.bench.mjs).
import crypto from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/** The benchmarks only ever talk to this machine. */
export function assertLoopback(url) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host))
    throw new Error(`The benchmark only talks to this machine; TEST_DATABASE_URL points at ${host}`);
}

/**
 * Creates `mkt_bench_<random>` on the server of `adminUrl`, applies `migrationsFolder`, and runs
 * `fill(query)` on one connection; the drop is pushed on `cleanups` unless `keep` (then `log` says
 * so). Answers the server's env for it, its name, how long the fill took and the server's version.
 */
export async function preparePostgresDatabase({
  adminUrl,
  migrationsFolder,
  fill,
  cleanups,
  keep = false,
  log,
}) {
  assertLoopback(adminUrl);
  const name = `mkt_bench_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  if (keep) log?.(`[postgres] database ${name} is kept (--keep): drop it when done`);
  else
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.href, max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder });
    const started = performance.now();
    await fill((statement) => pool.query(statement));
    const fillMs = performance.now() - started;
    const version = (await pool.query('show server_version')).rows[0].server_version;
    return { env: { DATABASE_URL: url.href }, databaseName: name, fillMs, version: `PostgreSQL ${version}` };
  } finally {
    await pool.end();
  }
}
