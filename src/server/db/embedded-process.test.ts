import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, migrateDatabase, openDatabase, type Database } from './client';
import { categories } from './schema';
import { TEST_DB_KIND } from '../testing/test-app';
import { rowsOf } from './rows-of';

/**
 * The embedded database in a process of its own (docs/decisions/0016-embedded-database-process.md),
 * built from src/ the way scripts/build-server.mjs builds it. The program is written inside the
 * project so that its packages resolve from node_modules.
 */
const root = path.resolve(import.meta.dirname, '../../..');
fs.mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
const buildDir = fs.mkdtempSync(path.join(root, 'node_modules/.cache/embedded-db-test-'));
const program = path.join(buildDir, 'embedded-db.js');
const dirs: string[] = [buildDir];

/** A data directory migrated once; each test starts from a copy (a first start runs initdb, slow). */
let template = '';

beforeAll(async () => {
  await build({
    entryPoints: [path.join(root, 'src/server/db/embedded-process.ts')],
    outfile: program,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  template = newDir();
  const database = await open(template);
  await migrateDatabase(database);
  await database.close();
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-embedded-'));
  dirs.push(dir);
  return dir;
}

/** A data directory holding the migrated database, as after a first start. */
function dataDir(): string {
  const dir = newDir();
  fs.cpSync(template, dir, { recursive: true });
  return dir;
}

function open(dir: string): Promise<Database> {
  return openDatabase({ dataDir: dir, embedded: 'process', embeddedProgram: program });
}

function lockOwner(dir: string): number | undefined {
  const file = path.join(dir, 'db.lock');
  return fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(TEST_DB_KIND === 'pglite')('the embedded database in its own process', () => {
  it('runs the migrations and the queries through the pg driver, in a process holding the lock', async () => {
    const dir = dataDir();
    const database = await open(dir);
    try {
      expect(database).toMatchObject({ kind: 'pglite', driver: 'pg', dataDir: dir });
      const owner = lockOwner(dir);
      expect(owner).toBeGreaterThan(0);
      expect(owner).not.toBe(process.pid);
      expect(isAlive(owner ?? 0)).toBe(true);

      // The template was migrated through this driver; running again finds nothing left to do.
      await migrateDatabase(database);
      const journal = JSON.parse(
        fs.readFileSync(path.join(root, 'src/server/db/migrations/meta/_journal.json'), 'utf8'),
      ) as { entries: unknown[] };
      const applied = await rowsOf<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(applied[0]?.n).toBe(journal.entries.length);
      await database.db.insert(categories).values({ name: 'Lanterns' });
      const rows = await database.db.select().from(categories).where(eq(categories.name, 'Lanterns'));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.createdAt).toBeInstanceOf(Date);
      // The search index's extension is loaded in the child too.
      const similar = await rowsOf<{ s: number }>(
        database.db,
        sql`select similarity('lantern', 'lanterns')::float as s`,
      );
      expect(similar[0]?.s).toBeGreaterThan(0.5);
      const locked = await database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(42)`);
        return rowsOf<{ id: string }>(tx, sql`select id from categories for update`);
      });
      expect(locked.length).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });

  it('rolls a failed transaction back, and the next query sees none of it', async () => {
    const database = await open(dataDir());
    try {
      await expect(
        database.db.transaction(async (tx) => {
          await tx.insert(categories).values({ name: 'Half written' });
          throw new Error('stop here');
        }),
      ).rejects.toThrow('stop here');
      const rows = await database.db.select().from(categories).where(eq(categories.name, 'Half written'));
      expect(rows).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('serialises concurrent transactions: two buyers of the last item give one winner', async () => {
    const database = await open(dataDir());
    try {
      await database.db.execute(sql`create table race (id int primary key, stock int not null)`);
      await database.db.execute(sql`insert into race values (1, 1)`);
      // Each reads the stock, waits, then writes what it read minus one: only a transaction that
      // has the database to itself until it commits sees the other's write.
      const buy = () =>
        database.db.transaction(async (tx) => {
          const [read] = await rowsOf<{ stock: number }>(tx, sql`select stock from race where id = 1`);
          const stock = read?.stock ?? 0;
          if (stock < 1) return false;
          await new Promise((resolve) => setTimeout(resolve, 50));
          await tx.execute(sql`update race set stock = ${stock - 1} where id = 1`);
          return true;
        });
      const outcomes = await Promise.all([buy(), buy(), buy()]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const [left] = await rowsOf<{ stock: number }>(database.db, sql`select stock from race where id = 1`);
      expect(left?.stock).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('delivers a NOTIFY once its transaction commits, and never one that rolls back', async () => {
    const database = await open(dataDir());
    try {
      const heard: string[] = [];
      const stop = await database.listen('live_test', { onNotify: (payload) => heard.push(payload) });
      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_notify('live_test', 'rolled back')`);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('live_test', 'committed')`);
        expect(heard).toEqual([]);
      });
      await waitFor(() => heard.length > 0, 'the notification');
      expect(heard).toEqual(['committed']);
      await stop();
      await database.db.execute(sql`select pg_notify('live_test', 'after stop')`);
      await database.ping();
      expect(heard).toEqual(['committed']);
    } finally {
      await database.close();
    }
  });

  it("hears a trigger's notice before its statement or commit returns (what kept signed-in reads rely on)", async () => {
    // docs/decisions/0029-signed-in-reads-kept.md, Why only on the embedded database: one instance, and
    // the notice with the commit, so nothing kept outlives the write that changed it.
    const database = await open(dataDir());
    try {
      let heard = 0;
      const stop = await database.listen('private_reads_changed', { onNotify: () => heard++ });
      for (let i = 0; i < 20; i++) {
        const before = heard;
        await database.db.execute(sql`delete from sessions where sid = 'none'`);
        expect(heard).toBe(before + 1);
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`update users set first_name = first_name where false`);
          expect(heard).toBe(before + 1);
        });
        expect(heard).toBe(before + 2);
      }
      await stop();
    } finally {
      await database.close();
    }
  });

  it('prepares a repeated statement once, and a new connection of the socket prepares it again', async () => {
    const database = await open(dataDir());
    try {
      await database.db.insert(categories).values({ name: 'Lanterns' });
      const read = () =>
        database.db.select({ name: categories.name }).from(categories).where(eq(categories.name, 'Lanterns'));
      const prepared = async () =>
        (
          await rowsOf<{ name: string }>(
            database.db,
            sql`select name from pg_prepared_statements where statement like ${'select "name" from "categories" where%'}`,
          )
        ).map((row) => row.name);
      for (let i = 0; i < 3; i++) expect(await read()).toEqual([{ name: 'Lanterns' }]);
      expect(await prepared()).toHaveLength(1);
      // The pool's one connection goes; PGlite's one backend, and what it prepared, stay.
      // drizzle() gives its handle the pool as `$client`; the project's Db type leaves it out.
      const pool = (database.db as unknown as { $client: pg.Pool }).$client;
      const client = await pool.connect();
      client.release(new Error('dropped by the test'));
      // The socket serves one connection at a time: a new one is refused until the old has gone.
      const until = Date.now() + 10_000;
      for (;;) {
        try {
          await database.ping();
          break;
        } catch (error) {
          if (Date.now() > until) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      for (let i = 0; i < 3; i++) expect(await read()).toEqual([{ name: 'Lanterns' }]);
      expect(await prepared()).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it('refuses a second process on the same data directory, naming the one that holds it', async () => {
    const dir = dataDir();
    const database = await open(dir);
    try {
      const owner = lockOwner(dir);
      const second = open(dir);
      await expect(second).rejects.toThrow(DataDirLockedError);
      await expect(second).rejects.toThrow(`already in use by another marketplace process (pid ${owner})`);
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
      await database.ping();
    } finally {
      await database.close();
    }
  });

  it('closes cleanly: the process ends, the lock and the socket go, and the data is there next time', async () => {
    const dir = dataDir();
    // The process makes its socket's directory in its own TMPDIR: one of this test's, which no
    // other test file running meanwhile writes into.
    const socketRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-socket-root-'));
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = socketRoot;
    let database: Awaited<ReturnType<typeof open>>;
    try {
      database = await open(dir);
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpdir;
    }
    const owner = lockOwner(dir) ?? 0;
    const socketDirs = fs.readdirSync(socketRoot).filter((name) => name.startsWith('mkt-db-'));
    expect(socketDirs).toHaveLength(1);
    await database.db.insert(categories).values({ name: 'Kept' });
    await database.close();
    expect(isAlive(owner)).toBe(false);
    expect(lockOwner(dir)).toBeUndefined();
    expect(fs.existsSync(path.join(socketRoot, socketDirs[0] ?? ''))).toBe(false);
    fs.rmSync(socketRoot, { recursive: true, force: true });

    const again = await open(dir);
    try {
      const rows = await again.db.select().from(categories).where(eq(categories.name, 'Kept'));
      expect(rows).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it('ends with its server: a server killed with SIGKILL leaves no process holding the lock', async () => {
    const dir = dataDir();
    // A stand-in server: starts the database process as the server does, then waits to be killed.
    const parent = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { fork } from 'node:child_process';
         const child = fork(${JSON.stringify(program)}, [${JSON.stringify(dir)}], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
         child.on('message', (m) => { if (m.type === 'ready') process.stdout.write('ready ' + child.pid + '\\n'); });
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    parent.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor(() => /ready \d+/.test(output), 'the database process', 20_000);
    } finally {
      parent.kill('SIGKILL');
    }
    const childPid = Number(/ready (\d+)/.exec(output)?.[1]);
    expect(lockOwner(dir)).toBe(childPid);
    await waitFor(() => !isAlive(childPid), 'the database process to end');
    expect(lockOwner(dir)).toBeUndefined();
    // And the directory opens again at once, its data intact.
    const database = await open(dir);
    await database.ping();
    await database.close();
  });
});
