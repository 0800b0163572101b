import { fork, type ChildProcess } from 'node:child_process';
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
 * directory starts from a copy of it (`unpackTemplate`), where PostgreSQL's initdb takes about 3 s
 * and the migrations about 0.5 s (docs/decisions/0016-embedded-database-process.md, Start-up).
 */
const EMBEDDED_TEMPLATE_FILE = 'embedded-template.tar';

/** The built template when `dir` has no database yet and the template exists (never in tests). */
function templateFor(dir: string | undefined): string | undefined {
  if (!dir || fs.existsSync(path.join(dir, 'PG_VERSION'))) return undefined;
  const template = path.join(path.dirname(fileURLToPath(import.meta.url)), EMBEDDED_TEMPLATE_FILE);
  return fs.existsSync(template) ? template : undefined;
}

/** The field of a tar header at `offset`, up to its first NUL. */
function tarField(header: Buffer, offset: number, length: number): string {
  const field = header.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

/**
 * Writes the files of the template (a tar archive made by PGlite's `dumpDataDir`) into `dir` with
 * Node's own file calls. PGlite's `loadDataDir` writes the same files one by one
 * through its emulated file system on the event loop, which took 1.2–1.3 s of a first start for
 * the 1,176 files (docs/decisions/0016-embedded-database-process.md, Start-up).
 */
export async function unpackTemplate(template: string, dir: string): Promise<void> {
  await unpackDataDirArchive(await fs.promises.readFile(template), dir, `The database template ${template}`);
}

/**
 * Writes the data directory held by `archive` (a tar archive of PGlite's `dumpDataDir`: the built
 * template, or a backup's database) into `dir`; `what` names the archive in errors. PG_VERSION,
 * which tells PGlite that a database is there, is written last: a start stopped halfway leaves a
 * directory without it, and the next start unpacks the template again over it. Files are the
 * user's alone (0600, in directories of 0700), as PostgreSQL makes them.
 */
export async function unpackDataDirArchive(archive: Buffer, dir: string, what: string): Promise<void> {
  const root = path.resolve(dir);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const dirs = new Set<string>([root]);
  const files: { target: string; data: Buffer }[] = [];
  let version: { target: string; data: Buffer } | undefined;
  let ended = false;
  for (let offset = 0; offset + 512 <= archive.length;) {
    const header = archive.subarray(offset, offset + 512);
    // Blocks of zeros end the archive.
    if (header.every((byte) => byte === 0)) {
      ended = true;
      break;
    }
    const prefix = tarField(header, 345, 155);
    const name = `${prefix ? `${prefix}/` : ''}${tarField(header, 0, 100)}`;
    const size = Number.parseInt(tarField(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const target = path.resolve(root, `.${path.posix.sep}${name}`);
    if (
      !Number.isSafeInteger(size) ||
      offset + 512 + size > archive.length ||
      (target !== root && !target.startsWith(root + path.sep))
    )
      throw new Error(`${what} has an unexpected entry: ${name}`);
    const data = archive.subarray(offset + 512, offset + 512 + size);
    if (type === '5') dirs.add(target);
    else if (type === '0' || type === '\0') {
      dirs.add(path.dirname(target));
      if (target === path.join(root, 'PG_VERSION')) version = { target, data };
      else files.push({ target, data });
    } else throw new Error(`${what} has an entry of type ${type}: ${name}`);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  if (!ended) throw new Error(`${what} is cut short`);
  if (!version) throw new Error(`${what} holds no database (no PG_VERSION)`);
  for (const target of dirs) fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  // One tick later, once PGlite's own loading has begun; then in one go, with synchronous calls.
  // Written asynchronously, a few at a time, each file's open, write and close waited for libuv's
  // threads and for a turn of the event loop, busy loading PGlite: 0.25–0.9 s, against 0.15–0.3 s
  // (docs/decisions/0016-embedded-database-process.md, Start-up).
  await new Promise((resolve) => setImmediate(resolve));
  for (const file of files) fs.writeFileSync(file.target, file.data, { mode: 0o600 });
  fs.writeFileSync(version.target, version.data, { mode: 0o600 });
}

/** Opens PGlite on `dir`, or in memory without one. The caller holds the data directory's lock. */
export async function createPglite(dir: string | undefined): Promise<PGlite> {
  // Loaded here, not at start-up: a server whose database runs in its own process never needs it.
  const [{ PGlite }, { NodeFS }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/nodefs'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const options = {
    // pg_trgm backs the product name search index (migration 0001); PostgreSQL ships it as contrib.
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  };
  if (!dir) return PGlite.create(options);
  const template = templateFor(dir);
  if (!template) return PGlite.create(dir, options);
  // A new data directory is unpacked while PGlite loads and compiles PostgreSQL: its file system
  // waits for the files just before PGlite looks for a database in them.
  const unpacking = unpackTemplate(template, dir);
  unpacking.catch(() => undefined);
  class UnpackedNodeFS extends NodeFS {
    override async initialSyncFs(): Promise<void> {
      await unpacking;
      await super.initialSyncFs();
    }
  }
  const client = await PGlite.create({ ...options, fs: new UnpackedNodeFS(dir) });
  // PGlite has failed already if the unpacking did; this reports the cause.
  await unpacking;
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

/** The embedded database process, started by `startEmbeddedProcess`. */
export interface EmbeddedProcess {
  child: ChildProcess;
  /**
   * The directory of its socket once the database is open. Rejects, once the process has gone, when
   * it cannot open it (a held lock is a DataDirLockedError).
   */
  ready: Promise<string>;
  exited: Promise<void>;
}

/** The embedded database program built beside this file (dist/server/). */
function builtEmbeddedProgram(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'embedded-db.js');
}

/**
 * Starts the embedded database process on `dataDir` (docs/decisions/0016-embedded-database-process.md).
 * It needs only Node's own modules, so the server starts it before loading its own
 * (src/server/main.ts): the database's start is the longest step of a start (Start-up).
 */
export function startEmbeddedProcess(dataDir: string, program = builtEmbeddedProgram()): EmbeddedProcess {
  if (!fs.existsSync(program))
    throw new Error(`The embedded database program ${program} is missing; build the server first`);
  const child = fork(program, [dataDir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Not the server's own flags (a profiler, a debugger port). Its JavaScript makes little garbage:
    // a small young generation; one V8 helper thread instead of four (fewer compiler threads, each
    // with its own memory) (docs/decisions/0016-embedded-database-process.md, Memory).
    execArgv: ['--enable-source-maps', '--max-semi-space-size=1', '--v8-pool-size=1'],
    // V8 compiles PGlite's WebAssembly function by function as queries first need them; with
    // glibc's defaults its compilers' freed memory stays resident (about 60 MB). Large blocks
    // taken straight from the kernel go back to it when freed, and two malloc arenas at most.
    env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '32768', MALLOC_ARENA_MAX: '2' },
  });
  // The process removes its socket's directory when it closes; one killed (SIGKILL, the kernel's
  // out-of-memory killer) cannot, so the server removes it once the process has gone.
  let socketDir: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      if (socketDir) fs.rmSync(socketDir, { recursive: true, force: true });
      resolve();
    }),
  );
  const ready = new Promise<string>((resolve, reject) => {
    const onMessage = (message: EmbeddedProcessMessage) => {
      if (message.type === 'ready') {
        socketDir = message.socketDir;
        resolve(message.socketDir);
      } else if (message.type === 'failed')
        reject(
          message.locked
            ? new DataDirLockedError(message.locked.dir, message.locked.pid)
            : new Error(message.message),
        );
    };
    child.on('message', onMessage);
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(
        new Error(
          `The embedded database process ended before it was ready (${signal ?? `exit code ${code}`})`,
        ),
      ),
    );
  }).catch(async (error: unknown) => {
    // The lock is free again only once the process has gone (one that never started has no exit).
    if (child.pid !== undefined) await exited;
    throw error;
  });
  // Its caller may still be loading when it fails: the failure waits for it, unreported until then.
  ready.catch(() => undefined);
  return { child, ready, exited };
}
