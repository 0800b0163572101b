import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { liveEvents, outbox } from '../../db/schema';
import {
  drainOutbox,
  enqueueOutbox,
  OUTBOX_RETRY_DELAYS_MS,
  type ClaimedOutboxItem,
} from '../../platform/outbox';
import { publishLiveEvents } from '../../platform/live-events';
import { dispatchLiveEvents } from './dispatch-live-events';

/**
 * The durable queue of mail and push and the dispatcher that fills it from live events
 * (docs/decisions/0019-reaching-people.md): written with the change, sent outside it, retried with a
 * growing wait, never twice, and each event dispatched once.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function rowOf(kind: string) {
  const [row] = await t.database.db.select().from(outbox).where(eq(outbox.kind, kind));
  if (!row) throw new Error(`no outbox row ${kind}`);
  return row;
}

describe('the outbox', () => {
  it('is not written when the transaction that queued it rolls back', async () => {
    await expect(
      t.database.db.transaction(async (tx) => {
        await enqueueOutbox(tx, [{ channel: 'mail', kind: 'rolled-back', payload: {} }]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await t.database.db.select().from(outbox).where(eq(outbox.kind, 'rolled-back'))).toEqual([]);
  });

  it('retries a failed delivery after a growing wait, sends it once when it works, and never again', async () => {
    await enqueueOutbox(t.database.db, [{ channel: 'mail', kind: 'retry-me', payload: { n: 1 } }]);
    const seen: ClaimedOutboxItem[] = [];
    let failing = true;
    const deliverers = {
      mail: async (item: ClaimedOutboxItem) => {
        if (item.kind !== 'retry-me') return { outcome: 'sent' as const };
        seen.push(item);
        return failing
          ? { outcome: 'retry' as const, error: 'connection refused' }
          : { outcome: 'sent' as const };
      },
    };
    const start = new Date(Date.now() + 1_000);
    await drainOutbox(t.database.db, deliverers, start);
    expect(seen.map((item) => item.attempt)).toEqual([1]);
    const afterFirst = await rowOf('retry-me');
    expect(afterFirst.status).toBe('queued');
    expect(afterFirst.lastError).toBe('connection refused');
    expect(afterFirst.nextAttemptAt.getTime()).toBe(start.getTime() + OUTBOX_RETRY_DELAYS_MS[0]!);

    // Not due yet: nothing is tried.
    await drainOutbox(t.database.db, deliverers, new Date(start.getTime() + 1_000));
    expect(seen).toHaveLength(1);

    failing = false;
    const later = new Date(start.getTime() + OUTBOX_RETRY_DELAYS_MS[0]!);
    await drainOutbox(t.database.db, deliverers, later);
    expect(seen.map((item) => item.attempt)).toEqual([1, 2]);
    expect((await rowOf('retry-me')).status).toBe('sent');

    await drainOutbox(t.database.db, deliverers, new Date(later.getTime() + 86_400_000));
    expect(seen).toHaveLength(2);
  });

  it("sends a new row at once, even when the database's clock is ahead of the app's", async () => {
    await enqueueOutbox(t.database.db, [{ channel: 'mail', kind: 'fresh', payload: {} }]);
    const sent: string[] = [];
    const deliverers = {
      mail: async (item: ClaimedOutboxItem) => {
        if (item.kind === 'fresh') sent.push(item.kind);
        return { outcome: 'sent' as const };
      },
    };
    // The row's next_attempt_at is the database's now() at insert; the app's clock a minute behind.
    await drainOutbox(t.database.db, deliverers, new Date(Date.now() - 60_000));
    expect(sent).toEqual(['fresh']);
    expect((await rowOf('fresh')).status).toBe('sent');
  });

  it('drops what can never be sent and gives up after the last wait', async () => {
    await enqueueOutbox(t.database.db, [
      { channel: 'push', kind: 'gone', payload: {} },
      { channel: 'push', kind: 'always-down', payload: {} },
    ]);
    const deliverers = {
      push: async (item: ClaimedOutboxItem) =>
        item.kind === 'gone'
          ? { outcome: 'drop' as const, reason: 'subscription gone (410)' }
          : { outcome: 'retry' as const, error: 'service unavailable' },
    };
    let now = new Date(Date.now() + 2_000);
    for (let attempt = 0; attempt <= OUTBOX_RETRY_DELAYS_MS.length; attempt++) {
      await drainOutbox(t.database.db, deliverers, now);
      now = new Date(now.getTime() + 86_400_000);
    }
    expect(await rowOf('gone')).toMatchObject({
      status: 'dropped',
      attempts: 1,
      lastError: 'subscription gone (410)',
    });
    expect(await rowOf('always-down')).toMatchObject({
      status: 'failed',
      attempts: OUTBOX_RETRY_DELAYS_MS.length + 1,
      lastError: 'service unavailable',
    });
  });

  it('hands a row to one of two senders at a time', async () => {
    await enqueueOutbox(t.database.db, [{ channel: 'mail', kind: 'once-only', payload: {} }]);
    let sends = 0;
    const deliverers = {
      mail: async (item: ClaimedOutboxItem) => {
        if (item.kind === 'once-only') sends++;
        return { outcome: 'sent' as const };
      },
    };
    const now = new Date(Date.now() + 3_000);
    await Promise.all([
      drainOutbox(t.database.db, deliverers, now),
      drainOutbox(t.database.db, deliverers, now),
    ]);
    expect(sends).toBe(1);
  });
});

describe('the dispatcher', () => {
  it('looks at each live event once and queues what its reactors ask for', async () => {
    await publishLiveEvents(t.database.db, [
      { event: { type: 'account.changed', userId: '00000000-0000-4000-8000-000000000001' }, audience: [] },
    ]);
    const looked: number[] = [];
    const reactor = async (_tx: unknown, events: readonly { id: number }[]) => {
      looked.push(...events.map((event) => event.id));
      return events.map((event) => ({ channel: 'mail' as const, kind: `event-${event.id}`, payload: {} }));
    };
    expect(await dispatchLiveEvents(t.database.db, [reactor])).toBeGreaterThan(0);
    expect(await dispatchLiveEvents(t.database.db, [reactor])).toBe(0);
    expect(looked.length).toBeGreaterThan(0);
    expect(new Set(looked).size).toBe(looked.length);
    const undispatched = await t.database.db.execute(
      sql`select 1 from ${liveEvents} where dispatched_at is null`,
    );
    expect((undispatched as unknown as { rows: unknown[] }).rows).toEqual([]);
    const queued = await t.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.kind, `event-${looked[0]}`));
    expect(queued).toHaveLength(1);
  });

  it('leaves the events for the next tick when a reactor fails', async () => {
    await publishLiveEvents(t.database.db, [
      { event: { type: 'account.changed', userId: '00000000-0000-4000-8000-000000000002' }, audience: [] },
    ]);
    await expect(
      dispatchLiveEvents(t.database.db, [
        async () => {
          throw new Error('template broken');
        },
      ]),
    ).rejects.toThrow('template broken');
    expect(await dispatchLiveEvents(t.database.db, [async () => []])).toBe(1);
  });
});
