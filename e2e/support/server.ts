import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunningServer {
  url: string;
  dataDir: string;
  logFile: string;
  process: ChildProcess;
  output: () => string;
}

const root = path.resolve(import.meta.dirname, '../..');

/** Starts the built server (dist/server/main.js) on a free port with its own data directory. */
export async function startServer(
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-e2e-'));
  const logFile = path.join(dataDir, '..', `${path.basename(dataDir)}.log`);
  let output = '';
  const child = spawn(process.execPath, [path.join(root, 'dist/server/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // As behind a reverse proxy: the sign-up helper names each test client's address.
      TRUST_PROXY: 'true',
      // The journeys pay with the built-in test provider, even when run with NODE_ENV=production.
      ALLOW_TEST_PAYMENTS: 'true',
      // The demo admin signs in with a password, even when run with NODE_ENV=production; the two-factor
      // journey starts a server of its own that requires it (docs/decisions/0024-two-factor-sign-in.md).
      ADMIN_TWO_FACTOR: 'optional',
      // Delivered orders pay out at once, as the journeys expect (no return window).
      PAYOUT_HOLD_HOURS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    fs.appendFileSync(logFile, chunk);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 60_000);
    const check = () => {
      const match = /is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('//localhost:', '//127.0.0.1:'));
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { url, dataDir, logFile, process: child, output: () => output };
}

export async function stopServer(server: Pick<RunningServer, 'process'>): Promise<number | null> {
  if (server.process.exitCode !== null) return server.process.exitCode;
  return new Promise((resolve) => {
    server.process.once('exit', (code) => resolve(code));
    server.process.kill('SIGTERM');
  });
}

/**
 * Lines of the server log that record a 5xx answer: any of them fails the run
 * (CONTRIBUTING.md, Code layout rules).
 */
export function serverErrors(log: string): string[] {
  return log.split('\n').filter((line) => {
    try {
      const entry = JSON.parse(line) as { res?: { statusCode?: number }; level?: number };
      return (entry.res?.statusCode ?? 0) >= 500 || (entry.level ?? 0) >= 50;
    } catch {
      return false;
    }
  });
}
