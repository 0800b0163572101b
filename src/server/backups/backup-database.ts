import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { migrationsFolder } from '../db/client';
import {
  createPglite,
  DataDirLockedError,
  lockDataDir,
  pgliteDir,
  unpackDataDirArchive,
} from '../db/embedded-database';
import { dumpPglite, requestEmbeddedDump } from '../db/embedded-backup';

/**
 * The database half of a backup (docs/operations.md, Backups): the embedded database's data
 * directory, taken by the process that holds it, or `pg_dump` of PostgreSQL; and both brought back.
 */

/** A backup or restore that cannot go on; its message is for the person running it. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** The committed migrations a database has applied, as drizzle's journal names them. */
export interface MigrationsSummary {
  count: number;
  /** The tag of the newest (`0020_…`), or its timestamp when this code does not know it. */
  last: string | null;
}

function summarise(createdAt: string[]): MigrationsSummary {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder(), 'meta/_journal.json'), 'utf8'),
  ) as {
    entries: { when: number; tag: string }[];
  };
  const newest = createdAt
    .map(Number)
    .sort((a, b) => a - b)
    .at(-1);
  if (newest === undefined) return { count: 0, last: null };
  const tag = journal.entries.find((entry) => entry.when === newest)?.tag;
  return { count: createdAt.length, last: tag ?? `unknown migration of ${new Date(newest).toISOString()}` };
}

const MIGRATIONS_SQL = `select created_at::text as created_at from drizzle.__drizzle_migrations`;
const JOURNAL_EXISTS_SQL = `select to_regclass('drizzle.__drizzle_migrations') is not null as present`;

async function migrationsOfPglite(pglite: PGlite): Promise<MigrationsSummary> {
  const present = await pglite.query<{ present: boolean }>(JOURNAL_EXISTS_SQL);
  if (!present.rows[0]?.present) return { count: 0, last: null };
  const rows = await pglite.query<{ created_at: string }>(MIGRATIONS_SQL);
  return summarise(rows.rows.map((row) => row.created_at));
}

/**
 * The embedded database of `dataDir` as a tar archive of its data directory. While a server runs,
 * its database process makes it (it holds the lock; `requestEmbeddedDump`); otherwise this process
 * takes the lock, opens PGlite, dumps and closes it. `onWaiting` hears that the dump waits for the
 * server's open transaction.
 */
export async function dumpEmbeddedDatabase(
  dataDir: string,
  options: { onWaiting?: () => void } = {},
): Promise<{ dump: Buffer; whileRunning: boolean }> {
  if (!fs.existsSync(path.join(pgliteDir(dataDir), 'PG_VERSION')))
    throw new BackupError(
      `${dataDir} holds no embedded database (no db/PG_VERSION): check DATA_DIR, or set DATABASE_URL to back up PostgreSQL`,
    );
  let release: () => void;
  try {
    release = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    return { dump: await requestEmbeddedDump(dataDir, error.pid, options), whileRunning: true };
  }
  try {
    const pglite = await createPglite(pgliteDir(dataDir));
    try {
      return { dump: await dumpPglite(pglite), whileRunning: false };
    } finally {
      await pglite.close();
    }
  } finally {
    release();
  }
}

/**
 * Writes the embedded database archive `dump` into `dir` (which must not hold one) and opens it,
 * as a server would: a backup that cannot be opened is never called done. Answers its migrations
 * and PostgreSQL's version.
 */
export async function unpackEmbeddedDatabase(
  dump: Buffer,
  dir: string,
  what: string,
): Promise<{ migrations: MigrationsSummary; server: string }> {
  await unpackDataDirArchive(dump, dir, what);
  let pglite: PGlite;
  try {
    pglite = await createPglite(dir);
  } catch (error) {
    throw new BackupError(
      `${what} does not open as a database: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    const version = await pglite.query<{ version: string }>('select version() as version');
    return { migrations: await migrationsOfPglite(pglite), server: version.rows[0]?.version ?? 'unknown' };
  } finally {
    await pglite.close();
  }
}

/** A connection URL without its password, and the password apart (given to libpq as PGPASSWORD). */
function splitPassword(databaseUrl: string): { url: string; password: string | undefined; shown: string } {
  const url = new URL(databaseUrl);
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.password = '';
  const shown = `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  return { url: url.href, password, shown };
}

/** Runs one of PostgreSQL's client programs; a failure says what it printed. */
function runPgProgram(
  program: string,
  pgBin: string | undefined,
  args: string[],
  password: string | undefined,
) {
  const command = pgBin ? path.join(pgBin, program) : program;
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Not on the command line, where `ps` would show it.
      env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${command} was not found: install PostgreSQL's client programs, of at least the server's major version, or name their directory with --pg-bin`
            : `${command} could not run: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(output.trim());
      else reject(new BackupError(`${program} failed (exit code ${code}):\n${output.trim()}`));
    });
  });
}

async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function migrationsOfPostgres(client: pg.Client): Promise<MigrationsSummary> {
  const present = await client.query<{ present: boolean }>(JOURNAL_EXISTS_SQL);
  if (!present.rows[0]?.present) return { count: 0, last: null };
  const rows = await client.query<{ created_at: string }>(MIGRATIONS_SQL);
  return summarise(rows.rows.map((row) => row.created_at));
}

/**
 * `pg_dump --format=custom` of DATABASE_URL into `file`. pg_dump refuses a server of a newer major
 * version than its own, so the client programs must be at least the server's version.
 */
export async function dumpPostgres(
  databaseUrl: string,
  file: string,
  pgBin: string | undefined,
): Promise<{ migrations: MigrationsSummary; server: string; tool: string }> {
  const { url, password } = splitPassword(databaseUrl);
  const tool = await runPgProgram('pg_dump', pgBin, ['--version'], undefined);
  const { migrations, server } = await withClient(databaseUrl, async (client) => ({
    migrations: await migrationsOfPostgres(client),
    server:
      (await client.query<{ version: string }>('select version() as version')).rows[0]?.version ?? 'unknown',
  }));
  await runPgProgram('pg_dump', pgBin, ['--format=custom', `--file=${file}`, `--dbname=${url}`], password);
  return { migrations, server, tool };
}

/** Refuses a PostgreSQL database that has tables already: a restore goes into an empty one. */
export async function checkPostgresEmpty(databaseUrl: string): Promise<void> {
  const { shown } = splitPassword(databaseUrl);
  const tables = await withClient(databaseUrl, async (client) => {
    const result = await client.query<{ name: string }>(
      `select table_schema || '.' || table_name as name from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema') order by 1 limit 4`,
    );
    return result.rows.map((row) => row.name);
  });
  if (tables.length > 0)
    throw new BackupError(
      `The database ${shown} already has tables (${tables.join(', ')}${tables.length > 3 ? ', …' : ''}): ` +
        'restore into a new, empty database (CREATE DATABASE …) and point DATABASE_URL at it. Nothing was changed.',
    );
}

/** `pg_restore` of `file` into DATABASE_URL, all or nothing; answers the migrations it brought. */
export async function restorePostgres(
  databaseUrl: string,
  file: string,
  pgBin: string | undefined,
): Promise<MigrationsSummary> {
  const { url, password } = splitPassword(databaseUrl);
  await runPgProgram(
    'pg_restore',
    pgBin,
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, file],
    password,
  );
  return withClient(databaseUrl, migrationsOfPostgres);
}
