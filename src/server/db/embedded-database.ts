import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';

/**
 * What the embedded PGlite database needs wherever it runs: in its own process behind a socket
 * (`npm start`) or inside the caller's process (tests, `npm run seed`); see
 * docs/decisions/0016-embedded-database-process.md.
 */

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dir} is already in use by another marketplace process (pid ${pid}). ` +
        'Stop that process first, or point DATA_DIR at another directory.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite must never be opened from two processes: a lock file holding the owner's pid guards the
 * data directory. A lock left by a dead process is taken over. Answers the function that releases it.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isProcessAlive(pid))
        throw new DataDirLockedError(dir, pid);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}

/** Where PGlite keeps its files inside DATA_DIR. */
export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'db');
}

/**
 * PostgreSQL's default 128 MB of shared buffers are all touched when PGlite starts; the demo
 * marketplace's database is about 40 MB on disk and the operating system caches its files, so
 * 16 MB keep the hot pages without costing their size in resident memory
 * (docs/decisions/0016-embedded-database-process.md, Memory).
 */
const SHARED_BUFFERS = '16MB';

/**
 * A new database cluster with every migration applied, made by `npm run build:server`
 * (scripts/build-server.mjs) with the PGlite installed then, beside the built program: a new data
 * directory starts from a copy of it, where PostgreSQL's initdb takes about 3 s and the migrations
 * about 0.5 s (docs/decisions/0016-embedded-database-process.md, Start-up).
 */
const EMBEDDED_TEMPLATE_FILE = 'embedded-template.tar';

/** The built template when `dir` has no database yet and the template exists (never in tests). */
function templateFor(dir: string | undefined): string | undefined {
  if (!dir || fs.existsSync(path.join(dir, 'PG_VERSION'))) return undefined;
  const template = path.join(path.dirname(fileURLToPath(import.meta.url)), EMBEDDED_TEMPLATE_FILE);
  return fs.existsSync(template) ? template : undefined;
}

/** Opens PGlite on `dir`, or in memory without one. The caller holds the data directory's lock. */
export async function createPglite(dir: string | undefined): Promise<PGlite> {
  // Loaded here, not at start-up: a server whose database runs in its own process never needs it.
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const options = {
    // pg_trgm backs the product name search index (migration 0001); PostgreSQL ships it as contrib.
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  };
  const template = templateFor(dir);
  const client = dir
    ? new PGlite(dir, template ? { ...options, loadDataDir: await fs.openAsBlob(template) } : options)
    : new PGlite(options);
  await client.waitReady;
  return client;
}

/** What the embedded database process tells the server (docs/decisions/0016-embedded-database-process.md). */
export type EmbeddedProcessMessage =
  | { type: 'ready'; socketDir: string }
  | { type: 'failed'; locked: { dir: string; pid: number } | null; message: string }
  | { type: 'closed' };

/** What the server tells the embedded database process. */
export type EmbeddedServerMessage = { type: 'close' };

/** The port number in the socket's name, `.s.PGSQL.<port>`, as the pg driver looks for it. */
export const EMBEDDED_SOCKET_PORT = 5432;
