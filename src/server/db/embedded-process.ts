// The embedded database process (docs/decisions/0016-embedded-database-process.md): started by the
// server with DATA_DIR as its only argument and an IPC channel, it takes the data directory's lock,
// opens PGlite and serves it on a Unix socket in a private directory, so that PGlite's work runs
// beside the server's event loop instead of on it. It closes PGlite when the server asks, and when
// the server is gone (the IPC channel closes, even after a SIGKILL), so no orphan keeps the lock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import {
  createPglite,
  DataDirLockedError,
  EMBEDDED_SOCKET_PORT,
  lockDataDir,
  pgliteDir,
  type EmbeddedProcessMessage,
  type EmbeddedServerMessage,
} from './embedded-database';
import { serveBackups } from './embedded-backup';

function send(message: EmbeddedProcessMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function main(dataDir: string): Promise<void> {
  // A terminal's Ctrl+C and a service manager's SIGTERM reach the whole process group: the server
  // decides when the database closes, after its requests have drained.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});

  let release = () => {};
  let pglite: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  let socketDir: string | undefined;
  let stopBackups: (() => Promise<void>) | undefined;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      try {
        await stopBackups?.();
        await server?.stop();
        await pglite?.close();
      } finally {
        release();
        if (socketDir) fs.rmSync(socketDir, { recursive: true, force: true });
      }
    })());
  const closeAndExit = (code: number) => {
    close().then(
      () => process.exit(code),
      (error: unknown) => {
        process.stderr.write(`The embedded database did not close cleanly: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };

  process.on('disconnect', () => closeAndExit(0));
  process.on('message', (message: EmbeddedServerMessage) => {
    if (message.type !== 'close') return;
    close()
      .then(() => send({ type: 'closed' }))
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });

  try {
    release = lockDataDir(dataDir);
    pglite = await createPglite(pgliteDir(dataDir));
    // Readable by this user only: PGlite has no passwords, the directory is the access control.
    socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-db-'));
    server = new PGLiteSocketServer({
      db: pglite,
      path: path.join(socketDir, `.s.PGSQL.${EMBEDDED_SOCKET_PORT}`),
      // One connection: PGlite is one backend, and the messages of two connections would interleave
      // inside each other's statements. The server's pool holds exactly this one.
      maxConnections: 1,
    });
    await server.start();
    // `npm run backup` asks this process for a consistent copy while the server runs
    // (docs/decisions/0016-embedded-database-process.md, Backups while it runs).
    stopBackups = await serveBackups(pglite, dataDir, socketDir);
    await send({ type: 'ready', socketDir });
  } catch (error) {
    await send({
      type: 'failed',
      locked: error instanceof DataDirLockedError ? { dir: error.dir, pid: error.pid } : null,
      message: error instanceof Error ? error.message : String(error),
    });
    closeAndExit(1);
  }
}

const dataDir = process.argv[2];
if (!process.send || !dataDir) {
  process.stderr.write('The embedded database process is started by the marketplace server.\n');
  process.exit(2);
}
void main(dataDir);
