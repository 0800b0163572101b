import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { DataDirLockedError, migrateDatabase, openDatabase, type Database } from '../db/client';
import { categories, orders, uploadedObjects, users } from '../db/schema';
import { rowsOf } from '../db/rows-of';
import { seedDemoData } from '../db/seed/demo';
import { BACKUP_CONTROL_FILE, EmbeddedBackupUnavailableError } from '../db/embedded-backup';
import { LocalObjectStorage } from '../adapters/storage/local-object-storage';
import { resolveSessionSecret, resolveVapidKeys } from '../secrets';
import { createPostgresDatabase, TEST_DB_KIND } from '../testing/test-app';
import { createBackup } from './create-backup';
import { restoreBackup } from './restore-backup';
import { BackupError } from './backup-database';

/**
 * `npm run backup` and `npm run restore` (docs/operations.md, Backups): a marketplace with the demo's
 * orders and pictures and an uploaded photo, backed up while its database process runs (as
 * `npm start` runs it) and with nothing running, restored into an empty directory, and compared
 * table by table and file by file. The database process is built from src/ as
 * scripts/build-server.mjs builds it, inside the project so its packages resolve.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
let program = '';

/** A real 1×1 PNG: the uploaded drop-off photo. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function newDir(prefix = 'mkt-backup-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  fs.mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
  const buildDir = fs.mkdtempSync(path.join(root, 'node_modules/.cache/backup-test-'));
  dirs.push(buildDir);
  program = path.join(buildDir, 'embedded-db.js');
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
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every row of every table of the public schema, as JSON text in a stable order. */
async function tables(database: Database): Promise<Map<string, string[]>> {
  const names = await rowsOf<{ name: string }>(
    database.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`,
  );
  const all = new Map<string, string[]>();
  for (const { name } of names) {
    const rows = await rowsOf<{ row: string }>(
      database.db,
      sql`select to_jsonb(t)::text as row from ${sql.identifier(name)} t order by 1`,
    );
    all.set(
      name,
      rows.map((row) => row.row),
    );
  }
  return all;
}

/** Each file of a data directory but the database's own, with its bytes' hash. */
function files(dataDir: string): Map<string, string> {
  const all = new Map<string, string>();
  for (const name of fs.readdirSync(dataDir, { recursive: true }).map(String).sort()) {
    if (
      name === 'db' ||
      name.startsWith(`db${path.sep}`) ||
      name === 'db.lock' ||
      name === BACKUP_CONTROL_FILE
    )
      continue;
    const full = path.join(dataDir, name);
    if (fs.statSync(full).isFile())
      all.set(name, crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
  }
  return all;
}

/**
 * A marketplace's data directory as a first start leaves it, with the demo's orders and pictures,
 * the session secret and push keys, and a photo uploaded by a buyer; opened by `open`.
 */
async function marketplace(
  open: () => Promise<Database>,
  dataDir: string,
): Promise<{ database: Database; photoKey: string }> {
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test' });
  const secret = resolveSessionSecret(config);
  resolveVapidKeys(config);
  const database = await open();
  await migrateDatabase(database);
  const storage = new LocalObjectStorage({
    root: path.join(dataDir, 'objects'),
    signingKey: Buffer.from(secret),
  });
  const seeded = await seedDemoData(database.db, { storage });
  expect(seeded.seeded).toBe(true);
  const [buyer] = await database.db.select({ id: users.id }).from(users).limit(1);
  const photoKey = `uploads/${crypto.randomUUID()}`;
  await storage.put(photoKey, PNG);
  await database.db.insert(uploadedObjects).values({
    key: photoKey,
    ownerId: buyer?.id ?? '',
    contentType: 'image/png',
    size: PNG.length,
    uploadedAt: new Date(),
  });
  return { database, photoKey };
}

/** Errors of the embedded database's connections: a backup must never disturb the server's. */
const connectionErrors: string[] = [];

function openEmbedded(dataDir: string): Promise<Database> {
  return openDatabase({
    dataDir,
    embedded: 'process',
    embeddedProgram: program,
    onError: (error) => connectionErrors.push(error.message),
  });
}

describe.runIf(TEST_DB_KIND === 'pglite')('backups of the embedded database', () => {
  let source = '';
  let photoKey = '';
  let backupWhileRunning = '';
  let expectedTables = new Map<string, string[]>();

  beforeAll(async () => {
    source = newDir();
    const made = await marketplace(() => openEmbedded(source), source);
    photoKey = made.photoKey;
    const database = made.database;
    try {
      // The server's transaction is open when the backup asks: the copy waits for it to end, and
      // holds what it committed.
      let heardWaiting = () => {};
      const waiting = new Promise<void>((resolve) => (heardWaiting = resolve));
      let backup: ReturnType<typeof createBackup> | undefined;
      await database.db.transaction(async (tx) => {
        await tx.insert(categories).values({ name: 'Committed during the backup' });
        backup = createBackup({ dataDir: source, to: newDir('mkt-backups-'), onWaiting: heardWaiting });
        backup.catch(() => undefined);
        await waiting;
      });
      const result = await backup;
      expect(result?.whileRunning).toBe(true);
      backupWhileRunning = result?.file ?? '';
      expectedTables = await tables(database);
      // The server's connection went on as before: nothing of the backup's reached it.
      expect(connectionErrors).toEqual([]);
    } finally {
      await database.close();
    }
  }, 180_000);

  it('copies a running marketplace, and an empty directory gets back every row and every file', async () => {
    expect(fs.statSync(backupWhileRunning).mode & 0o777).toBe(0o600);
    expect(path.basename(backupWhileRunning)).toMatch(
      /^marketplace-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/,
    );
    expect([...(expectedTables.get('orders') ?? [])].length).toBeGreaterThan(0);
    expect(expectedTables.get('categories')?.some((row) => row.includes('Committed during the backup'))).toBe(
      true,
    );

    const target = path.join(newDir(), 'restored');
    const { manifest, migrations } = await restoreBackup({ from: backupWhileRunning, dataDir: target });
    expect(manifest.database.kind).toBe('pglite');
    expect(migrations).toEqual(manifest.database.migrations);
    expect(migrations.count).toBeGreaterThan(0);
    expect(migrations.last).toMatch(/^\d{4}_/);
    expect(manifest.files.count).toBe(files(source).size);

    expect(files(target)).toEqual(files(source));
    expect(fs.readFileSync(path.join(target, 'objects', ...photoKey.split('/')))).toEqual(PNG);
    expect(fs.statSync(path.join(target, 'session-secret')).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(target, 'db.lock'))).toBe(false);
    // Restored by the server's own way of opening it.
    const restored = await openEmbedded(target);
    try {
      expect(await tables(restored)).toEqual(expectedTables);
      const [order] = await restored.db.select({ n: sql<number>`count(*)::int` }).from(orders);
      expect(order?.n).toBe(expectedTables.get('orders')?.length);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('copies a marketplace whose server is stopped, taking and giving back the lock', async () => {
    const to = path.join(newDir('mkt-backups-'), 'nightly.tar.gz');
    const result = await createBackup({ dataDir: source, to });
    expect(result).toMatchObject({ file: to, whileRunning: false });
    expect(fs.existsSync(path.join(source, 'db.lock'))).toBe(false);
    expect(fs.readdirSync(path.dirname(to))).toEqual(['nightly.tar.gz']);

    const target = newDir();
    await restoreBackup({ from: to, dataDir: target });
    expect(files(target)).toEqual(files(source));
    const restored = await openDatabase({ dataDir: target });
    try {
      expect(await tables(restored)).toEqual(expectedTables);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('restores into an empty directory only, and never into one a server holds', async () => {
    const occupied = newDir();
    fs.writeFileSync(path.join(occupied, 'notes.txt'), 'mine');
    await expect(restoreBackup({ from: backupWhileRunning, dataDir: occupied })).rejects.toThrow(
      new BackupError(
        `The data directory ${occupied} is not empty: a restore never mixes a backup with other data. ` +
          'Restore into a new directory (--data-dir), or move this one aside first.',
      ),
    );
    expect(fs.readdirSync(occupied)).toEqual(['notes.txt']);

    const running = await openEmbedded(source);
    try {
      const restore = restoreBackup({ from: backupWhileRunning, dataDir: source });
      await expect(restore).rejects.toThrow(DataDirLockedError);
      await expect(restore).rejects.toThrow('already in use by another marketplace process');
      await running.ping();
    } finally {
      await running.close();
    }
  }, 60_000);

  it('refuses a backup cut short, and leaves the directory as it found it', async () => {
    const cut = path.join(newDir(), 'cut.tar.gz');
    const whole = fs.readFileSync(backupWhileRunning);
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const target = path.join(newDir(), 'restored');
    await expect(restoreBackup({ from: cut, dataDir: target })).rejects.toThrow(/cut short|cannot be read/);
    expect(fs.existsSync(target)).toBe(false);
  }, 60_000);

  it('fails with a message, and writes nothing (not even a directory), when the process holding the lock does not answer', async () => {
    // Another process holds the lock (a server with the database in process, `npm run seed`).
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(holder);
    const pid = holder.pid ?? 0;
    fs.writeFileSync(path.join(source, 'db.lock'), String(pid));
    const before = fs.readdirSync(path.join(source, 'db'), { recursive: true }).length;
    const backups = newDir('mkt-backups-');
    try {
      const refused = createBackup({ dataDir: source, to: backups });
      await expect(refused).rejects.toThrow(EmbeddedBackupUnavailableError);
      await expect(refused).rejects.toThrow(
        `The data directory ${source} is in use by process ${pid}, which serves no backups`,
      );
      // A control file naming it, whose socket is gone (a process killed before it could remove it).
      fs.writeFileSync(
        path.join(source, BACKUP_CONTROL_FILE),
        JSON.stringify({ pid, socket: path.join(newDir(), 'backup') }),
      );
      await expect(createBackup({ dataDir: source, to: backups })).rejects.toThrow(
        new RegExp(`in use by process ${pid}, which did not answer at`),
      );
      expect(fs.readdirSync(backups)).toEqual([]);
      // Into a directory that is not there yet: the directories it made go too.
      const missing = path.join(newDir('mkt-backups-'), 'made', 'daily');
      await expect(createBackup({ dataDir: source, to: `${missing}/` })).rejects.toThrow(
        EmbeddedBackupUnavailableError,
      );
      expect(fs.readdirSync(path.dirname(path.dirname(missing)))).toEqual([]);
      expect(fs.readFileSync(path.join(source, 'db.lock'), 'utf8')).toBe(String(pid));
      expect(fs.readdirSync(path.join(source, 'db'), { recursive: true }).length).toBe(before);
    } finally {
      holder.kill('SIGKILL');
      fs.rmSync(path.join(source, 'db.lock'), { force: true });
      fs.rmSync(path.join(source, BACKUP_CONTROL_FILE), { force: true });
    }
  }, 60_000);

  it('never writes a backup inside the data directory, nor over a file', async () => {
    await expect(createBackup({ dataDir: source, to: path.join(source, 'backups') })).rejects.toThrow(
      /would be inside the data directory/,
    );
    const taken = path.join(newDir(), 'taken.tar.gz');
    fs.writeFileSync(taken, 'something else');
    await expect(createBackup({ dataDir: source, to: taken })).rejects.toThrow(/exists already/);
    expect(fs.readFileSync(taken, 'utf8')).toBe('something else');
  });
});

describe.runIf(TEST_DB_KIND === 'postgres')('backups of PostgreSQL', () => {
  it('dumps the database with pg_dump beside the files, and restores both into empty ones', async () => {
    const sourceDb = await createPostgresDatabase();
    const targetDb = await createPostgresDatabase();
    try {
      const source = newDir();
      const made = await marketplace(() => openDatabase({ databaseUrl: sourceDb.url }), source);
      let expected: Map<string, string[]>;
      try {
        expected = await tables(made.database);
      } finally {
        await made.database.close();
      }
      const backup = await createBackup({
        dataDir: source,
        databaseUrl: sourceDb.url,
        to: newDir('mkt-backups-'),
      });
      expect(backup.manifest.database).toMatchObject({ kind: 'postgres', entry: 'database/postgres.dump' });
      expect(backup.manifest.database.tool).toMatch(/^pg_dump \(PostgreSQL\) \d+/);

      const target = newDir();
      await expect(
        restoreBackup({ from: backup.file, dataDir: target, databaseUrl: undefined }),
      ).rejects.toThrow('This backup holds a PostgreSQL dump: set DATABASE_URL');
      expect(fs.readdirSync(target)).toEqual([]);

      const { migrations } = await restoreBackup({
        from: backup.file,
        dataDir: target,
        databaseUrl: targetDb.url,
      });
      expect(migrations).toEqual(backup.manifest.database.migrations);
      expect(files(target)).toEqual(files(source));
      expect(fs.readFileSync(path.join(target, 'objects', ...made.photoKey.split('/')))).toEqual(PNG);
      const restored = await openDatabase({ databaseUrl: targetDb.url });
      try {
        expect(await tables(restored)).toEqual(expected);
      } finally {
        await restored.close();
      }

      // The database has the marketplace's tables now: a second restore into it is refused.
      await expect(
        restoreBackup({ from: backup.file, dataDir: newDir(), databaseUrl: targetDb.url }),
      ).rejects.toThrow(/already has tables/);
    } finally {
      await sourceDb.drop();
      await targetDb.drop();
    }
  }, 180_000);
});
