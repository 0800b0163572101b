import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB_KIND } from './testing/test-app';

/**
 * The server started as `node main` is (docs/operations.md): in production it refuses the built-in
 * test payment provider unless ALLOW_TEST_PAYMENTS=true, and its banner names the active provider.
 * Built from src/ as scripts/build-server.mjs builds it (inside the project, so its packages
 * resolve from node_modules); on the embedded database (the refusal comes before any database is
 * opened, so the PostgreSQL run adds nothing).
 */
const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
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
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
}, 60_000);
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the server until it prints its banner (then stops it) or exits; answers what it wrote, what
 * of that went to standard error, and its exit code.
 */
function startServer(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; errors: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-start-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [path.join(buildDir, 'main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  return new Promise((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready in \d+ ms/.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
      read(chunk);
    });
    child.on('exit', (code) => resolve({ code, output, errors }));
  });
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
});
