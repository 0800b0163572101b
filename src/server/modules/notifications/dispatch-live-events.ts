import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows-of';
import type { Db } from '../../db/client';
import { liveEvents } from '../../db/schema';
import { enqueueOutbox, type OutboxItem } from '../../platform/outbox';
import type { StoredLiveEvent } from '../../platform/live-events';
import { liveEventSchema } from '../../../domain/live-events';

/**
 * Turns what happened into mail and push (docs/decisions/0019-reaching-people.md). A live event is
 * already written in the transaction of its change (docs/rules/live-updates.md, Live updates), so it is
 * the outbox of every notification about orders, offers and messages: the dispatcher claims events
 * not yet dispatched (skipping those another instance holds), asks each reactor what to send, queues
 * that and marks the events, in one transaction: each event is dispatched once, and an event whose
 * notifications could not be queued is tried again at the next tick.
 */

/** Decides, for some events, what mail and push they cause; reads with `tx` only. */
export type LiveEventReactor = (tx: Db, events: readonly StoredLiveEvent[]) => Promise<OutboxItem[]>;

const DISPATCH_LIMIT = 200;

/** Dispatches up to one batch; answers how many events it looked at. */
export async function dispatchLiveEvents(db: Db, reactors: readonly LiveEventReactor[]): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await rowsOf<{
      id: string | number;
      audience: string[] | string;
      for_drivers: boolean;
      trailer_only: boolean;
      data: unknown;
    }>(
      tx,
      sql`
      select id, audience, for_drivers, trailer_only, data from ${liveEvents}
      where dispatched_at is null
      order by id
      limit ${DISPATCH_LIMIT}
      for update skip locked`,
    );
    if (claimed.length === 0) return 0;
    const events: StoredLiveEvent[] = [];
    for (const row of claimed) {
      const data = liveEventSchema.safeParse(row.data);
      // An event of a kind this version does not know (written by a newer instance) causes nothing here.
      if (!data.success) continue;
      events.push({
        id: Number(row.id),
        audience: parseUuidArray(row.audience),
        forDrivers: row.for_drivers,
        trailerOnly: row.trailer_only,
        data: data.data,
      });
    }
    for (const react of reactors) {
      await enqueueOutbox(tx, await react(tx, events));
    }
    const ids = claimed.map((row) => Number(row.id));
    await tx.execute(sql`
      update ${liveEvents} set dispatched_at = now()
      where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`);
    return claimed.length;
  });
}

/** node-postgres answers uuid[] as an array; PGlite may answer its text form `{a,b}`. */
function parseUuidArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',');
}
