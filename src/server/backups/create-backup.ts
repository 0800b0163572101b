import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_CONTROL_FILE } from '../db/embedded-backup';
import { writeArchive, type ArchiveEntry, type StreamedArchiveEntry } from './backup-archive';
import {
  BackupError,
  dumpEmbeddedDatabase,
  dumpPostgres,
  unpackEmbeddedDatabase,
  type MigrationsSummary,
} from './backup-database';

/**
 * `npm run backup` (docs/operations.md, Backups): one `.tar.gz` holding the database (the embedded
 * database's data directory, or PostgreSQL's `pg_dump --format=custom`), every file of DATA_DIR but
 * the lock and the embedded database's own directory (uploaded files, the session secret, the push
 * keys), and a manifest, last.
 */

export const MANIFEST_ENTRY = 'manifest.json';
export const PGLITE_ENTRY = 'database/pglite.tar';
export const POSTGRES_ENTRY = 'database/postgres.dump';
export const FILES_PREFIX = 'files/';

/** What a backup says of itself, in `manifest.json`. */
export interface BackupManifest {
  format: 'marketplace-backup/1';
  createdAt: string;
  database: {
    kind: 'pglite' | 'postgres';
    entry: string;
    bytes: number;
    sha256: string;
    /** PostgreSQL's `version()`. */
    server: string;
    migrations: MigrationsSummary;
    /** `pg_dump --version`, for PostgreSQL. */
    tool?: string;
  };
  files: { count: number; bytes: number };
}

/** The entries of DATA_DIR's top level that a backup leaves out: the database has its own entry. */
export const NOT_BACKED_UP = new Set(['db', 'db.lock', BACKUP_CONTROL_FILE]);

/** A file being written by the local object store (`LocalObjectStorage.put`). */
const TEMPORARY_FILE = /^\..+\.tmp$/;

/** Left out of a backup: the lock, the database's own directory and files, temporary files. */
function isLeftOut(name: string, atTop: boolean): boolean {
  if (atTop && (NOT_BACKED_UP.has(name) || name.startsWith(`${BACKUP_CONTROL_FILE}.`))) return true;
  return TEMPORARY_FILE.test(name);
}

export interface BackupOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** The file to write, or a directory for `marketplace-<UTC time>.tar.gz`; DATA_DIR/../backups by default. */
  to?: string | undefined;
  /** The directory of pg_dump, when not on the PATH. */
  pgBin?: string | undefined;
  now?: () => Date;
  /** Hears that the embedded dump waits for the server's open transaction to end. */
  onWaiting?: () => void;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
  /** The embedded database was copied by a running server's database process. */
  whileRunning: boolean;
  /** Entries of DATA_DIR that are neither files nor directories (links, sockets), left out. */
  skipped: string[];
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** `marketplace-2026-11-27T03-00-00Z.tar.gz` in `to` (a directory), or `to` itself. */
function targetFile(options: BackupOptions, now: Date): string {
  const defaultDir = path.resolve(options.dataDir, '..', 'backups');
  const to = options.to ?? defaultDir;
  const isDir =
    to === defaultDir || /[/\\]$/.test(to) || (fs.existsSync(to) && fs.statSync(to).isDirectory());
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  const file = path.resolve(isDir ? path.join(to, `marketplace-${stamp}.tar.gz`) : to);
  if (isInside(file, path.resolve(options.dataDir)))
    throw new BackupError(
      `The backup ${file} would be inside the data directory ${options.dataDir}: put it elsewhere (another disk, or another machine)`,
    );
  if (fs.existsSync(file)) throw new BackupError(`${file} exists already: a backup never replaces a file`);
  return file;
}

/** DATA_DIR's files to back up, as paths relative to it with `/`; what is neither file nor directory apart. */
function listDataFiles(dataDir: string): { files: string[]; skipped: string[] } {
  const files: string[] = [];
  const skipped: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const relative = `${prefix}${entry.name}`;
      if (isLeftOut(entry.name, prefix === '')) continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${relative}/`);
      else if (entry.isFile()) files.push(relative);
      else skipped.push(relative);
    }
  };
  if (fs.existsSync(dataDir)) walk(dataDir, '');
  return { files: files.sort(), skipped };
}

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const now = (options.now ?? (() => new Date()))();
  const file = targetFile(options, now);
  // The first directory this made, if `--to` named one that is not there yet: a backup that fails
  // leaves nothing behind, not even it (docs/operations.md, Backups).
  const made = fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  let written = false;
  // Beside the backup, on its disk: the database's copy and its check are written here first.
  let scratch: string | undefined;
  try {
    scratch = fs.mkdtempSync(path.join(path.dirname(file), '.marketplace-backup-'));
    const databaseEntry = await backUpDatabase(options, scratch, now);
    const { files, skipped } = listDataFiles(options.dataDir);
    const counted = { count: 0, bytes: 0 };
    const manifest = (): BackupManifest => ({
      format: 'marketplace-backup/1',
      createdAt: now.toISOString(),
      database: databaseEntry.manifest,
      files: counted,
    });
    async function* entries(): AsyncGenerator<ArchiveEntry | StreamedArchiveEntry> {
      yield databaseEntry.entry;
      for (const relative of files) {
        const full = path.join(options.dataDir, ...relative.split('/'));
        let data: Buffer;
        let stat: fs.Stats;
        try {
          // Open once: a file replaced meanwhile (the object store renames over it) is read whole.
          const handle = await fs.promises.open(full, 'r');
          try {
            stat = await handle.stat();
            data = await handle.readFile();
          } finally {
            await handle.close();
          }
        } catch (error) {
          // Deleted since it was listed (an upload removed while the backup ran): not in the backup.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw error;
        }
        counted.count += 1;
        counted.bytes += data.length;
        yield { name: `${FILES_PREFIX}${relative}`, mode: stat.mode & 0o777, mtime: stat.mtime, data };
      }
      yield {
        name: MANIFEST_ENTRY,
        mode: 0o600,
        mtime: now,
        data: Buffer.from(`${JSON.stringify(manifest(), null, 2)}\n`),
      };
    }
    const partial = path.join(scratch, 'backup.tar.gz');
    await writeArchive(partial, entries());
    // A link fails if the name was taken meanwhile; the backup appears whole or not at all.
    fs.linkSync(partial, file);
    written = true;
    return {
      file,
      bytes: fs.statSync(file).size,
      manifest: manifest(),
      whileRunning: databaseEntry.whileRunning,
      skipped,
    };
  } finally {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    if (!written && made) removeMadeDirectories(path.dirname(file), made);
  }
}

/**
 * Removes the directories from `dir` up to `made`, the first one a failed backup made, each only if
 * it is empty: anything another process put there meanwhile stays.
 */
function removeMadeDirectories(dir: string, made: string): void {
  for (
    let current = path.resolve(dir);
    isInside(current, path.resolve(made));
    current = path.dirname(current)
  ) {
    try {
      fs.rmdirSync(current);
    } catch {
      return;
    }
    if (current === path.resolve(made)) return;
  }
}

async function backUpDatabase(
  options: BackupOptions,
  scratch: string,
  now: Date,
): Promise<{
  entry: ArchiveEntry | StreamedArchiveEntry;
  manifest: BackupManifest['database'];
  whileRunning: boolean;
}> {
  if (options.databaseUrl) {
    const dumpFile = path.join(scratch, 'postgres.dump');
    const { migrations, server, tool } = await dumpPostgres(options.databaseUrl, dumpFile, options.pgBin);
    const stat = fs.statSync(dumpFile);
    const hash = crypto.createHash('sha256');
    for await (const chunk of fs.createReadStream(dumpFile)) hash.update(chunk as Buffer);
    return {
      entry: {
        name: POSTGRES_ENTRY,
        mode: 0o600,
        mtime: stat.mtime,
        size: stat.size,
        stream: () => fs.createReadStream(dumpFile),
      },
      manifest: {
        kind: 'postgres',
        entry: POSTGRES_ENTRY,
        bytes: stat.size,
        sha256: hash.digest('hex'),
        server,
        migrations,
        tool,
      },
      whileRunning: false,
    };
  }
  const { dump, whileRunning } = await dumpEmbeddedDatabase(options.dataDir, {
    onWaiting: options.onWaiting,
  });
  // Opened before it is written into the backup, as a restore would open it.
  const { migrations, server } = await unpackEmbeddedDatabase(
    dump,
    path.join(scratch, 'db'),
    "The embedded database's copy",
  );
  return {
    entry: { name: PGLITE_ENTRY, mode: 0o600, mtime: now, data: dump },
    manifest: {
      kind: 'pglite',
      entry: PGLITE_ENTRY,
      bytes: dump.length,
      sha256: crypto.createHash('sha256').update(dump).digest('hex'),
      server,
      migrations,
    },
    whileRunning,
  };
}
