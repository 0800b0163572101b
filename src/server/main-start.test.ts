import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client';
import { TEST_DB_KIND } from './testing/test-app';

/**
 * The server started as `node main` is (docs/operations.md): in production it refuses the built-in
 * test payment provider unless ALLOW_TEST_PAYMENTS=true, and its banner names the active provider; a
 * start that fails says why in one line and exits 1 (Start-up messages); the embedded database's
 * process killed ends the server with the documented line.
 * Built from src/ as scripts/build-server.mjs builds it (inside the project, so its packages
 * resolve from node_modules); on the embedded database (the refusal comes before any database is
 * opened, so the PostgreSQL run adds nothing).
 */
const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
let buildDir = '';

beforeAll(async () => {
  fs.mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
  buildDir = fs.mkdtempSync(path.join(root, 'node_modules/.cache/main-start-test-'));
  dirs.push(buildDir);
  await build({
    entryPoints: { main: 'src/server/main.ts', 'embedded-db': 'src/server/db/embedded-process.ts' },
    absWorkingDir: root,
    outdir: buildDir,
    bundle: true,
    // In chunks loaded when first imported, as the built server: a start's phases overlap as there.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
}, 60_000);
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  errors: string;
}

interface Started {
  child: ChildProcess;
  dataDir: string;
  /** The server's temporary directory (TMPDIR), its own: the embedded database's socket is in it. */
  tmpDir: string;
  /** Settles once the banner is printed; rejects if the server ends first. */
  ready: Promise<void>;
  ended: Promise<Ended>;
}

function newDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Starts the server; ends it after 90 s whatever happens, so no test waits for ever. */
function spawnServer(env: Record<string, string>, options: { uid?: number; dataDir?: string } = {}): Started {
  const dataDir = options.dataDir ?? newDir('mkt-start-');
  const tmpDir = newDir('mkt-start-tmp-');
  if (options.uid !== undefined) fs.chownSync(tmpDir, options.uid, -1);
  const child = spawn(process.execPath, [path.join(buildDir, 'main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      TMPDIR: tmpDir,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid }),
  });
  children.push(child);
  const deadline = setTimeout(() => child.kill('SIGKILL'), 90_000);
  let output = '';
  let errors = '';
  let onBanner = () => {};
  const ready = new Promise<void>((resolve) => (onBanner = resolve));
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    if (/Ready in \d+ ms/.test(output)) onBanner();
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
    read(chunk);
  });
  const ended = new Promise<Ended>((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, output, errors });
    }),
  );
  const started = Promise.race([
    ready,
    ended.then(() => Promise.reject(new Error(`The server ended: ${output}`))),
  ]);
  // A test that expects the start to fail awaits `ended` only.
  started.catch(() => undefined);
  return { child, dataDir, tmpDir, ready: started, ended };
}

/**
 * Runs the server until it prints its banner (then stops it) or exits; answers what it wrote, what
 * of that went to standard error, and its exit code.
 */
async function startServer(env: Record<string, string>): Promise<Ended> {
  const server = spawnServer(env);
  server.ready.then(
    () => server.child.kill('SIGTERM'),
    () => undefined,
  );
  return server.ended;
}

/** A start that fails: exit code 1, and its one line on standard error, without a stack. */
async function failedStart(
  env: Record<string, string>,
  options: { uid?: number; dataDir?: string } = {},
): Promise<string> {
  const server = spawnServer(env, options);
  server.ready.then(
    () => server.child.kill('SIGTERM'),
    () => undefined,
  );
  const { code, errors, output } = await server.ended;
  expect(output).not.toContain('Ready in');
  expect(code).toBe(1);
  const lines = errors.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

/** A port nothing listens on: one just closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.runIf(TEST_DB_KIND === 'pglite')('starting the server', () => {
  it('refuses the test payment provider in production, and names the provider it runs on', async () => {
    const refused = await startServer({ NODE_ENV: 'production' });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('STRIPE_SECRET_KEY: is required in production');
    expect(refused.output).toContain('ALLOW_TEST_PAYMENTS=true');

    const allowed = await startServer({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' });
    expect(allowed.output).toContain(
      'Payments: built-in test provider, no real money moves (ALLOW_TEST_PAYMENTS=true)',
    );
    expect(allowed.code).toBe(0);
    // A clean start warns of nothing (the embedded database's pool once drew a pg deprecation warning).
    expect(allowed.output).toContain('own process');
    expect(allowed.errors).toBe('');
  }, 120_000);

  it('names a database it cannot reach, in one line; the stack only with LOG_LEVEL=debug', async () => {
    const port = await closedPort();
    const url = `postgres://marketplace@127.0.0.1:${port}/marketplace`;
    expect(await failedStart({ DATABASE_URL: url })).toBe(
      `Start-up failed: could not reach the database: connection refused at 127.0.0.1:${port}`,
    );
    const debug = spawnServer({ DATABASE_URL: url, LOG_LEVEL: 'debug' });
    const ended = await debug.ended;
    expect(ended.code).toBe(1);
    expect(ended.errors).toContain(`connection refused at 127.0.0.1:${port}`);
    expect(ended.errors).toMatch(/\n {4}at /);
  }, 120_000);

  it('names the process that holds the data directory, from its lock file', async () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(holder);
    const dataDir = newDir('mkt-start-held-');
    fs.writeFileSync(path.join(dataDir, 'db.lock'), String(holder.pid));
    try {
      // With the demo data, whose modules load while the database opens (a failure then was once
      // an unhandled rejection with a stack before the line).
      expect(await failedStart({ DEMO_DATA: 'on' }, { dataDir })).toBe(
        `Start-up failed: The data directory ${dataDir} is already in use by another marketplace process ` +
          `(pid ${holder.pid}). Stop that process first, or point DATA_DIR at another directory.`,
      );
    } finally {
      holder.kill('SIGKILL');
    }
  }, 120_000);

  it('names the path it cannot write', async () => {
    const dataDir = newDir('mkt-start-readonly-');
    // Root writes anywhere: as root the server runs as nobody, who cannot write root's directory.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) fs.chmodSync(buildDir, 0o755);
    else fs.chmodSync(dataDir, 0o500);
    const line = await failedStart({ SESSION_SECRET: '' }, { dataDir, ...(asRoot ? { uid: 65534 } : {}) });
    expect(line).toBe(
      `Start-up failed: cannot write ${path.join(dataDir, 'session-secret')}: permission denied (EACCES)`,
    );
  }, 120_000);

  it('names the port in use, and a start that cannot listen leaves no job run behind', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    const server = spawnServer({ PORT: String(port), MONEY_RETRY_INTERVAL_MS: '60000' });
    try {
      const { code, errors } = await server.ended;
      expect(code).toBe(1);
      expect(errors.trim()).toBe(
        `Start-up failed: 127.0.0.1:${port} is in use by another process: stop it, or set PORT (or HOST) to another`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    // It stopped what it started: the database's process (its lock and socket gone), no run active.
    expect(fs.existsSync(path.join(server.dataDir, 'db.lock'))).toBe(false);
    expect(fs.readdirSync(server.tmpDir)).toEqual([]);
    const database = await openDatabase({ dataDir: server.dataDir });
    try {
      const { rows } = await database
        .executeSql(`select count(*)::int as active from pgboss.job where state = 'active'`)
        .catch(() => ({ rows: [{ active: 0 }] }));
      expect(rows).toEqual([{ active: 0 }]);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('ends with the documented line when the embedded database process is killed, and removes its socket', async () => {
    const server = spawnServer({});
    await server.ready;
    expect(fs.readdirSync(server.tmpDir)).toHaveLength(1);
    const databasePid = Number(fs.readFileSync(path.join(server.dataDir, 'db.lock'), 'utf8'));
    process.kill(databasePid, 'SIGKILL');
    const { code, errors } = await server.ended;
    expect(code).toBe(1);
    expect(errors.trim().split('\n').at(-1)).toBe(
      'The embedded database process ended unexpectedly (SIGKILL).',
    );
    expect(errors).not.toMatch(/\n {4}at /);
    expect(fs.readdirSync(server.tmpDir)).toEqual([]);
  }, 120_000);
});

describe.runIf(TEST_DB_KIND === 'postgres')('starting the server on PostgreSQL', () => {
  const url = (change: (url: URL) => void) => {
    const parsed = new URL(process.env.TEST_DATABASE_URL ?? '');
    change(parsed);
    return parsed.href;
  };

  it('names a database that does not exist, and a role that does not exist, in one line', async () => {
    const missing = `mkt_missing_${crypto.randomBytes(4).toString('hex')}`;
    expect(await failedStart({ DATABASE_URL: url((u) => (u.pathname = `/${missing}`)) })).toBe(
      `Start-up failed: could not open the database: database "${missing}" does not exist`,
    );
    const role = `mkt_nobody_${crypto.randomBytes(4).toString('hex')}`;
    const line = await failedStart({ DATABASE_URL: url((u) => ((u.username = role), (u.password = 'x'))) });
    // Trust authentication says the role does not exist; password authentication, that it failed.
    expect([
      `Start-up failed: could not open the database: role "${role}" does not exist`,
      `Start-up failed: could not open the database: password authentication failed for user "${role}"`,
    ]).toContain(line);
  }, 120_000);
});
