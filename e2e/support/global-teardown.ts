import fs from 'node:fs';
import { serverErrors } from './server';
import { STATE_FILE } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  if (!fs.existsSync(STATE_FILE)) return;
  const state = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as {
    pid: number;
    logFile: string;
    dataDir: string;
  };
  try {
    process.kill(state.pid, 'SIGTERM');
  } catch {
    // already stopped
  }
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(state.pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      break;
    }
  }
  const log = fs.existsSync(state.logFile) ? fs.readFileSync(state.logFile, 'utf8') : '';
  fs.rmSync(state.dataDir, { recursive: true, force: true });
  fs.rmSync(STATE_FILE, { force: true });
  const errors = serverErrors(log);
  if (errors.length > 0)
    throw new Error(`The server logged errors during the browser tests:\n${errors.join('\n')}`);
}
