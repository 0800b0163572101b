import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { createPostgresDatabase, TEST_DB_KIND } from '../testing/test-app';
import { DEFAULT_JOB_QUEUE_SETTINGS, JOB_SCHEMA, JobQueue } from './job-queue';

/**
 * A run held by an instance that is killed (SIGKILL: no shutdown, no outcome recorded) is taken over
 * by another instance within 30 s, with the default timings (docs/decisions/0021-durable-jobs.md,
 * A dead instance's run). Two processes on one PostgreSQL database: the holder is
 * src/server/testing/job-run-holder.ts, built as scripts/build-server.mjs builds the server.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const JOB = 'takeover';
const cleanups: (() => Promise<void> | void)[] = [];
let holderProgram = '';

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** When the lease of the job's active run ends (pg-boss's `started_on + expire_in`), in ms. */
async function leaseEnd(database: Database): Promise<number | undefined> {
  const { rows } = await database.executeSql(
    `select (extract(epoch from started_on + expire_in) * 1000)::float8 as ends from ${JOB_SCHEMA}.job where name = $1 and state = 'active'`,
    [JOB],
  );
  const [row] = rows as { ends: number }[];
  return row ? Number(row.ends) : undefined;
}

/** Starts the holder; resolves once it holds a run, rejects if it ends first or takes over a minute. */
function startHolder(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [holderProgram, url, JOB], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`The holder did not take a run: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('holding\n')) {
        clearTimeout(deadline);
        resolve(child);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code, signal) => {
      clearTimeout(deadline);
      reject(new Error(`The holder ended (${signal ?? code}): ${output}`));
    });
  });
}

describe.runIf(TEST_DB_KIND === 'postgres')('a job run held by a killed instance', () => {
  beforeAll(async () => {
    fs.mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
    const buildDir = fs.mkdtempSync(path.join(root, 'node_modules/.cache/job-takeover-test-'));
    cleanups.push(() => fs.rmSync(buildDir, { recursive: true, force: true }));
    holderProgram = path.join(buildDir, 'job-run-holder.js');
    await build({
      entryPoints: [path.join(root, 'src/server/testing/job-run-holder.ts')],
      outfile: holderProgram,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
  }, 60_000);

  it('is taken over by another instance within 30 s', async () => {
    const created = await createPostgresDatabase();
    cleanups.push(created.drop);
    const database = await openDatabase({ databaseUrl: created.url });
    cleanups.push(() => database.close());
    const holder = await startHolder(created.url);

    // Another instance with the same job, the default timings: it waits while the holder lives.
    let ranAt: number | undefined;
    const queue = new JobQueue(database, Fastify({ logger: false }).log, DEFAULT_JOB_QUEUE_SETTINGS);
    queue.every({
      name: JOB,
      everyMs: 60_000,
      run: async () => {
        ranAt ??= Date.now();
      },
    });
    await queue.start();
    cleanups.push(() => queue.stop());
    const first = (await leaseEnd(database)) ?? 0;
    // The holder renews its run's lease: past the first lease, with the other instance asking.
    await expect
      .poll(async () => (await leaseEnd(database)) ?? 0, { timeout: 60_000, interval: 500 })
      .toBeGreaterThan(first + DEFAULT_JOB_QUEUE_SETTINGS.leaseSeconds * 1000);
    expect(ranAt).toBeUndefined();

    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    const killedAt = Date.now();
    await exited;
    await expect.poll(() => ranAt, { timeout: 60_000, interval: 250 }).toBeDefined();
    const takeoverMs = (ranAt ?? Infinity) - killedAt;
    process.stdout.write(`job run taken over ${takeoverMs} ms after its instance was killed\n`);
    expect(takeoverMs).toBeLessThan(30_000);
  }, 180_000);
});
