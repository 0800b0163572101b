// A process that takes a run of a job on the job queue and holds it, renewing its lease, until it
// is killed (docs/decisions/0021-durable-jobs.md, A dead instance's run): the job queue's takeover
// test (src/server/platform/job-takeover.test.ts) kills it with SIGKILL. It prints "holding" once
// the run has started. Arguments: the database's URL and the job's name.
import Fastify from 'fastify';
import { openDatabase } from '../db/client';
import { JobQueue } from '../platform/job-queue';

const [databaseUrl, name] = process.argv.slice(2);
if (!databaseUrl || !name) {
  process.stderr.write('use: job-run-holder <database URL> <job name>\n');
  process.exit(2);
}
const database = await openDatabase({ databaseUrl });
const queue = new JobQueue(database, Fastify({ logger: { level: 'warn' } }).log);
queue.every({
  name,
  everyMs: 60_000,
  run: () => {
    process.stdout.write('holding\n');
    return new Promise(() => {});
  },
});
await queue.start();
