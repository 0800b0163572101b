import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import { AppError } from '../../platform/errors';
import type { App } from '../../platform/context';
import type { RateCounts } from '../../platform/rate-limit';
import { sendCachedAnswer, type PublicAnswerCache } from '../../platform/public-cache';
import { migrationsFolder, type Database } from '../../db/client';
import { rowsOf } from '../../db/rows-of';

const okSchema = z.object({ status: z.literal('ok') });
const OK = Buffer.from(JSON.stringify({ status: 'ok' } satisfies z.infer<typeof okSchema>));

/**
 * Liveness and readiness apart (docs/operations.md, Health and shutdown): `/api/health` answers
 * from the process alone, so a supervisor restarts only a process that no longer answers;
 * `/api/ready` asks the database and its migrations, so a load balancer sends requests only to an
 * instance that can serve them, and stops as soon as the instance starts shutting down.
 */
export function registerHealthRoutes(
  app: App,
  database: Pick<Database, 'db' | 'ping'>,
  outside: {
    /** Where the rate limits are counted: Redis (REDIS_URL) is asked too. */
    rateCounts?: Pick<RateCounts, 'ping'> | undefined;
    /**
     * Keeps the answer of `/api/health` like a public read, replayed by the server's listener
     * (docs/decisions/0015-catalog-and-checkout-throughput.md,
     * Replays in the server's listener, health kept).
     */
    keptReads?: PublicAnswerCache | undefined;
  } = {},
): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Answers 200 while the process answers; asks nothing of the database',
        response: { 200: okSchema },
      },
    },
    async (request, reply) => {
      const { keptReads } = outside;
      if (!keptReads) return { status: 'ok' as const };
      return sendCachedAnswer(request, reply, await keptReads.answer('health', async () => OK), {
        sameForAll: true,
      });
    },
  );

  const expected = lastCommittedMigration();
  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['operations'],
        summary:
          'Answers 200 when the database (and Redis, when REDIS_URL is set) is reachable and every committed migration is applied',
        response: { 200: okSchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      if (closing) throw new AppError('unavailable', 'This instance is shutting down');
      let applied: number | undefined;
      try {
        applied = await withinDeadline(
          database.ping().then(() => lastAppliedMigration(database)),
          READINESS_DEADLINE_MS,
        );
      } catch (error) {
        request.log.error({ err: error }, 'readiness check: database unreachable');
        throw new AppError('unavailable', 'The database is unreachable');
      }
      if (applied === undefined || applied < expected) {
        throw new AppError('unavailable', 'The database migrations are not all applied yet');
      }
      if (outside.rateCounts?.ping) {
        try {
          await outside.rateCounts.ping();
        } catch (error) {
          request.log.error({ err: error }, 'readiness check: redis unreachable');
          throw new AppError('unavailable', 'Redis is unreachable');
        }
      }
      return { status: 'ok' as const };
    },
  );
}

/**
 * How long readiness waits for the database: whatever the database does (refuses, resets, goes
 * silent, or every pooled connection is stuck), /api/ready answers 503 within this, well inside a
 * load balancer's check timeout (docs/operations.md, Database timeouts).
 */
const READINESS_DEADLINE_MS = 1_500;

/** `work`'s answer, or a rejection once `ms` have passed (the work itself runs on to its own timeout). */
function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The `when` of the newest committed migration, which drizzle's migrator records as `created_at`. */
function lastCommittedMigration(): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder(), 'meta/_journal.json'), 'utf8'),
  ) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/** The newest migration applied to this database, or undefined when none is. */
async function lastAppliedMigration(database: Pick<Database, 'db'>): Promise<number | undefined> {
  const [row] = await rowsOf<{ last: string | null }>(
    database.db,
    sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  const last = row?.last;
  return last == null ? undefined : Number(last);
}
