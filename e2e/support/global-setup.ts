import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './server';

export const STATE_FILE = path.join(os.tmpdir(), 'mkt-e2e-state.json');

export default async function globalSetup(): Promise<void> {
  const server = await startServer();
  process.env.E2E_BASE_URL = server.url;
  fs.writeFileSync(
    STATE_FILE,
    JSON.stringify({ pid: server.process.pid, logFile: server.logFile, dataDir: server.dataDir }),
  );
  // Playwright waits for the teardown; the server must not keep this process's event loop alive.
  server.process.unref();
}
