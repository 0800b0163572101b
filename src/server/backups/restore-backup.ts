import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lockDataDir, pgliteDir } from '../db/embedded-database';
import { readArchive } from './backup-archive';
import {
  BackupError,
  checkPostgresEmpty,
  restorePostgres,
  unpackEmbeddedDatabase,
  type MigrationsSummary,
} from './backup-database';
import {
  FILES_PREFIX,
  MANIFEST_ENTRY,
  NOT_BACKED_UP,
  PGLITE_ENTRY,
  POSTGRES_ENTRY,
  type BackupManifest,
} from './create-backup';

/**
 * `npm run restore` (docs/operations.md, Backups): brings a backup back into an empty data
 * directory, and on PostgreSQL into an empty database. Everything is checked against the manifest
 * before the database is written; a restore that fails leaves the data directory empty again.
 */

export interface RestoreOptions {
  /** The backup file. */
  from: string;
  dataDir: string;
  /** For a backup of PostgreSQL: the empty database to restore into. */
  databaseUrl?: string | undefined;
  /** The directory of pg_restore, when not on the PATH. */
  pgBin?: string | undefined;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** What the restored database holds, read back from it. */
  migrations: MigrationsSummary;
}

/**
 * Refuses a data directory with anything in it; a server holding its lock is named
 * (DataDirLockedError, from `lockDataDir`).
 */
function checkDataDirEmpty(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  if (!fs.statSync(dataDir).isDirectory()) throw new BackupError(`${dataDir} is not a directory`);
  if (fs.readdirSync(dataDir).length === 0) return;
  // Throws when a live process holds the lock; otherwise takes and gives it back at once.
  lockDataDir(dataDir)();
  throw new BackupError(
    `The data directory ${dataDir} is not empty: a restore never mixes a backup with other data. ` +
      'Restore into a new directory (--data-dir), or move this one aside first.',
  );
}

/** The path of a backed-up file inside the data directory, refusing one that would leave it. */
function restoredPath(dataDir: string, name: string): string {
  const relative = name.slice(FILES_PREFIX.length);
  const parts = relative.split('/');
  if (
    parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\')) ||
    NOT_BACKED_UP.has(parts[0] ?? '')
  )
    throw new BackupError(`The backup has a file that cannot be restored: ${name}`);
  return path.join(dataDir, ...parts);
}

/** Removes what a failed restore wrote: the directory it made, or what it put in an empty one. */
function emptyAgain(dataDir: string, made: boolean): void {
  if (made) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  for (const name of fs.readdirSync(dataDir))
    fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dataDir = path.resolve(options.dataDir);
  if (!fs.existsSync(options.from) || !fs.statSync(options.from).isFile())
    throw new BackupError(`There is no backup file ${options.from}`);
  checkDataDirEmpty(dataDir);
  if (options.databaseUrl) await checkPostgresEmpty(options.databaseUrl);

  const made = !fs.existsSync(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const release = lockDataDir(dataDir);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-restore-'));
  let done = false;
  try {
    let database: { name: string; data?: Buffer; file?: string; bytes: number; sha256: string } | undefined;
    let manifest: BackupManifest | undefined;
    const files = { count: 0, bytes: 0 };
    const dumpFile = path.join(scratch, 'postgres.dump');
    // A PostgreSQL dump may be larger than memory: it goes to a file for pg_restore.
    const spill = (name: string) => (name === POSTGRES_ENTRY ? dumpFile : undefined);
    for await (const entry of readArchive(options.from, spill)) {
      if (manifest) throw new BackupError(`The backup ${options.from} has entries after its manifest`);
      if (entry.name === PGLITE_ENTRY || entry.name === POSTGRES_ENTRY) {
        if (database) throw new BackupError(`The backup ${options.from} holds two databases`);
        if (entry.name === PGLITE_ENTRY && options.databaseUrl)
          throw new BackupError(
            'This backup holds the embedded database: unset DATABASE_URL to restore it into a data directory',
          );
        if (entry.name === POSTGRES_ENTRY && !options.databaseUrl)
          throw new BackupError(
            'This backup holds a PostgreSQL dump: set DATABASE_URL to the new, empty database to restore it into',
          );
        database = entry.spilled
          ? {
              name: entry.name,
              file: entry.spilled.file,
              bytes: entry.spilled.size,
              sha256: entry.spilled.sha256,
            }
          : {
              name: entry.name,
              data: entry.data,
              bytes: entry.data.length,
              sha256: crypto.createHash('sha256').update(entry.data).digest('hex'),
            };
      } else if (entry.name.startsWith(FILES_PREFIX)) {
        const target = restoredPath(dataDir, entry.name);
        fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
        fs.writeFileSync(target, entry.data, { flag: 'wx', mode: entry.mode & 0o777 || 0o600 });
        fs.chmodSync(target, entry.mode & 0o777 || 0o600);
        fs.utimesSync(target, entry.mtime, entry.mtime);
        files.count += 1;
        files.bytes += entry.data.length;
      } else if (entry.name === MANIFEST_ENTRY) {
        manifest = JSON.parse(entry.data.toString('utf8')) as BackupManifest;
      } else throw new BackupError(`The backup ${options.from} has an unknown entry: ${entry.name}`);
    }
    if (manifest?.format !== 'marketplace-backup/1')
      throw new BackupError(
        `${options.from} is not a marketplace backup, or is cut short (no manifest at its end)`,
      );
    if (
      !database ||
      database.name !== manifest.database.entry ||
      database.bytes !== manifest.database.bytes ||
      database.sha256 !== manifest.database.sha256
    )
      throw new BackupError(
        `The backup ${options.from} is damaged: its database is not the one its manifest names`,
      );
    if (files.count !== manifest.files.count || files.bytes !== manifest.files.bytes)
      throw new BackupError(
        `The backup ${options.from} is damaged: it holds ${files.count} files where its manifest says ${manifest.files.count}`,
      );

    let migrations: MigrationsSummary;
    if (database.file && options.databaseUrl)
      migrations = await restorePostgres(options.databaseUrl, database.file, options.pgBin);
    else if (database.data)
      migrations = (
        await unpackEmbeddedDatabase(database.data, pgliteDir(dataDir), `The backup ${options.from}`)
      ).migrations;
    else throw new BackupError(`The backup ${options.from} holds no database`);
    done = true;
    return { manifest, migrations };
  } finally {
    release();
    fs.rmSync(scratch, { recursive: true, force: true });
    if (!done) emptyAgain(dataDir, made);
  }
}
