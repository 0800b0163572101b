import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './server';

/**
 * Where this run keeps its server's pid and data directory: one file per run, so that two runs
 * on one machine never stop each other's server. The workers learn it from the environment.
 */
export const STATE_FILE =
  process.env.E2E_STATE_FILE ?? path.join(os.tmpdir(), `mkt-e2e-state-${process.pid}.json`);

export default async function globalSetup(): Promise<void> {
  const server = await startServer();
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_STATE_FILE = STATE_FILE;
  fs.writeFileSync(
    STATE_FILE,
    JSON.stringify({ pid: server.process.pid, logFile: server.logFile, dataDir: server.dataDir }),
  );
  // Playwright waits for the teardown; the server must not keep this process's event loop alive.
  server.process.unref();
}
