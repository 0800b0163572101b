import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * A consistent copy of the embedded database, and how `npm run backup` asks the process that holds
 * it for one (docs/decisions/0016-embedded-database-process.md, Backups while it runs; docs/operations.md,
 * Backups). Only the process holding the data directory's lock may open PGlite, so a backup of a
 * running marketplace is made by the database process itself: it listens on a second Unix socket
 * in its private directory and names that socket in DATA_DIR/db.control (mode 0600).
 */

/** The file naming the database process's backup socket, beside the lock; never backed up. */
export const BACKUP_CONTROL_FILE = 'db.control';

/** How long a dump waits for the server's open transaction to end before it gives up. */
const TRANSACTION_WAIT_MS = 60_000;
/** How often it looks again meanwhile. */
const TRANSACTION_POLL_MS = 10;

/** A simple-query message of PostgreSQL's wire protocol. */
function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0, 'latin1');
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

/** The text of the first ErrorResponse among the backend's messages, if any. */
function errorIn(reply: Uint8Array): string | undefined {
  const bytes = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  for (let offset = 0; offset + 5 <= bytes.length;) {
    const type = String.fromCharCode(bytes[offset] ?? 0);
    const length = bytes.readInt32BE(offset + 1);
    if (type === 'E') {
      const fields = bytes
        .subarray(offset + 5, offset + 1 + length)
        .toString('utf8')
        .split('\0');
      return fields.find((field) => field.startsWith('M'))?.slice(1) ?? 'unknown error';
    }
    offset += 1 + length;
  }
  return undefined;
}

export interface DumpOptions {
  /** Called once when the dump has to wait for an open transaction to end. */
  onWaiting?: () => void;
  /** How long to wait for it; 60 s by default. */
  transactionWaitMs?: number;
}

/**
 * The data directory of `pglite` as an uncompressed tar archive, taken between two of its
 * statements and outside any transaction: PGlite's `dumpDataDir` holds its query lock but not its
 * transaction lock, and the server's connection (through the socket server, whose statements take
 * the query lock one message at a time) may be inside BEGIN; the dump then waits for that
 * transaction's end. A CHECKPOINT first writes every changed page into the data files, so the
 * copy opens without replaying the log since the last one. The files are read in one synchronous
 * go while no statement runs.
 */
export async function dumpPglite(pglite: PGlite, options: DumpOptions = {}): Promise<Buffer> {
  const until = Date.now() + (options.transactionWaitMs ?? TRANSACTION_WAIT_MS);
  let waited = false;
  for (;;) {
    const dump = await pglite.runExclusive(async () => {
      if (pglite.isInTransaction()) return undefined;
      // Its answer comes to this callback: PGlite keeps the last stream's callback (the socket
      // server's connection) for `execProtocolRaw`, whose answer would reach the server's connection.
      const answer: Uint8Array[] = [];
      await pglite.execProtocolRawStream(simpleQuery('CHECKPOINT'), {
        onRawData: (bytes) => answer.push(bytes.slice()),
      });
      const problem = errorIn(Buffer.concat(answer));
      if (problem) throw new Error(`The embedded database refused a checkpoint: ${problem}`);
      if (!pglite.fs) throw new Error('The embedded database has no file system to copy');
      return pglite.fs.dumpTar('db', 'none');
    });
    if (dump) return Buffer.from(await dump.arrayBuffer());
    if (!waited) options.onWaiting?.();
    waited = true;
    if (Date.now() > until)
      throw new Error(
        `The embedded database stayed inside a transaction for ${Math.round((options.transactionWaitMs ?? TRANSACTION_WAIT_MS) / 1000)} s: no consistent copy could be taken`,
      );
    await new Promise((resolve) => setTimeout(resolve, TRANSACTION_POLL_MS));
  }
}

/** One line of the backup socket's answer; a `dump` line is followed by `size` bytes. */
type ControlAnswer =
  | { type: 'waiting'; reason: 'transaction' }
  | { type: 'dump'; size: number }
  | { type: 'error'; message: string };

interface ControlFile {
  pid: number;
  socket: string;
}

/**
 * Serves dumps of `pglite` on a Unix socket in `socketDir` (the database process's private
 * directory, mode 0700) and names it in DATA_DIR/db.control. A request is the line
 * `{"type":"dump"}`; the answer is JSON lines, the last one `dump` followed by the archive's bytes,
 * or `error`. One dump at a time. Answers the function that stops serving and removes the file.
 */
export async function serveBackups(
  pglite: PGlite,
  dataDir: string,
  socketDir: string,
): Promise<() => Promise<void>> {
  const socketPath = path.join(socketDir, 'backup');
  let queue: Promise<unknown> = Promise.resolve();
  const answer = (socket: net.Socket, line: ControlAnswer) => socket.write(`${JSON.stringify(line)}\n`);
  const server = net.createServer((socket) => {
    socket.on('error', () => socket.destroy());
    let request = '';
    const onData = (chunk: Buffer) => {
      request += chunk.toString('utf8');
      if (!request.includes('\n')) {
        if (request.length > 1024) socket.destroy();
        return;
      }
      socket.off('data', onData);
      let asked: unknown;
      try {
        asked = JSON.parse(request.slice(0, request.indexOf('\n')));
      } catch {
        asked = undefined;
      }
      if ((asked as { type?: unknown } | undefined)?.type !== 'dump') {
        answer(socket, { type: 'error', message: 'Unknown request' });
        socket.end();
        return;
      }
      const run = queue.then(() =>
        dumpPglite(pglite, { onWaiting: () => answer(socket, { type: 'waiting', reason: 'transaction' }) }),
      );
      queue = run.catch(() => undefined);
      run.then(
        (dump) => {
          answer(socket, { type: 'dump', size: dump.length });
          socket.end(dump);
        },
        (error: unknown) => {
          answer(socket, { type: 'error', message: error instanceof Error ? error.message : String(error) });
          socket.end();
        },
      );
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const controlFile = path.join(dataDir, BACKUP_CONTROL_FILE);
  const temporary = `${controlFile}.${process.pid}.tmp`;
  const control: ControlFile = { pid: process.pid, socket: socketPath };
  fs.writeFileSync(temporary, JSON.stringify(control), { mode: 0o600 });
  fs.renameSync(temporary, controlFile);
  return async () => {
    try {
      const named = JSON.parse(fs.readFileSync(controlFile, 'utf8')) as Partial<ControlFile>;
      if (named.pid === process.pid) fs.rmSync(controlFile, { force: true });
    } catch {
      // gone already
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await queue;
  };
}

/** The database process holding the lock cannot be asked for a backup. */
export class EmbeddedBackupUnavailableError extends Error {
  constructor(dataDir: string, pid: number, why: string) {
    super(
      `The data directory ${dataDir} is in use by process ${pid}, which ${why}. A running marketplace ` +
        'answers backups from its database process (`npm start`); a server with EMBEDDED_DATABASE=in-process, ' +
        '`npm run seed`, `npm run reconcile` or an older version does not: stop it or wait for it, then ' +
        'back up again. Nothing was written.',
    );
    this.name = 'EmbeddedBackupUnavailableError';
  }
}

/**
 * Asks the database process `pid`, which holds the lock of `dataDir`, for a dump through the
 * socket named in DATA_DIR/db.control (`serveBackups`).
 */
export async function requestEmbeddedDump(
  dataDir: string,
  pid: number,
  options: { onWaiting?: () => void } = {},
): Promise<Buffer> {
  let control: Partial<ControlFile>;
  try {
    control = JSON.parse(
      fs.readFileSync(path.join(dataDir, BACKUP_CONTROL_FILE), 'utf8'),
    ) as Partial<ControlFile>;
  } catch {
    throw new EmbeddedBackupUnavailableError(dataDir, pid, 'serves no backups (or is still starting)');
  }
  if (control.pid !== pid || typeof control.socket !== 'string')
    throw new EmbeddedBackupUnavailableError(dataDir, pid, 'serves no backups (or is still starting)');
  const socketPath = control.socket;
  return new Promise<Buffer>((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let head = Buffer.alloc(0);
    let size: number | undefined;
    const body: Buffer[] = [];
    let received = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(error);
    };
    socket.on('connect', () => socket.write(`${JSON.stringify({ type: 'dump' })}\n`));
    socket.on('error', (error) =>
      fail(
        received === 0 && size === undefined
          ? new EmbeddedBackupUnavailableError(
              dataDir,
              pid,
              `did not answer at ${socketPath} (${error.message})`,
            )
          : new Error(`The database process stopped answering during the backup: ${error.message}`),
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      if (size !== undefined) {
        body.push(chunk);
        received += chunk.length;
        return;
      }
      head = Buffer.concat([head, chunk]);
      for (let end = head.indexOf(10); end >= 0 && size === undefined; end = head.indexOf(10)) {
        let line: ControlAnswer;
        try {
          line = JSON.parse(head.subarray(0, end).toString('utf8')) as ControlAnswer;
        } catch {
          return fail(new Error(`The process at ${socketPath} does not answer as a marketplace database`));
        }
        head = head.subarray(end + 1);
        if (line.type === 'waiting') options.onWaiting?.();
        else if (line.type === 'error')
          return fail(new Error(`The database process could not make the backup: ${line.message}`));
        else {
          size = line.size;
          body.push(head);
          received = head.length;
        }
      }
    });
    socket.on('end', () => {
      if (settled) return;
      if (size === undefined || received !== size)
        return fail(new Error('The database process ended its answer before the whole backup was sent'));
      settled = true;
      resolve(Buffer.concat(body, size));
    });
  });
}
