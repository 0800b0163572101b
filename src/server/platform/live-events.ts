import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { liveEvents } from '../db/schema';
import { fulfilmentOf, type OrderStatus } from '../../domain/order-status';
import type { LiveEvent } from '../../domain/live-events';
import { isOnOffer, orderAudience, type LiveEventAudience, type OrderParties } from './policy';

/**
 * The one publisher of live updates (docs/rules/live-updates.md, Live updates). An event is a row of
 * `live_events` (kept an hour for browsers that reconnect with Last-Event-ID) and a NOTIFY on
 * {@link LIVE_EVENTS_CHANNEL} that every app instance hears, on PostgreSQL as on the embedded
 * database. Written with the caller's handle: inside a transaction it is sent when the transaction
 * commits and never when it rolls back; after a transaction it is sent at once.
 */

export const LIVE_EVENTS_CHANNEL = 'live_events';

/**
 * Not an event but a notice on the same channel: every session of the user ended (but the one
 * kept), so every instance ends their open streams at once (docs/rules/live-updates.md, Live updates).
 */
export interface SessionsEnded {
  userId: string;
  keepSessionId: string | null;
}

/**
 * Announces with the caller's handle that a user's sessions ended: inside a transaction, at its
 * commit. Not stored: a stream opened later is refused by its session check anyway.
 */
export async function announceSessionsEnded(db: Db, ended: SessionsEnded): Promise<void> {
  await db.execute(
    sql`select pg_notify(${LIVE_EVENTS_CHANNEL}, ${JSON.stringify({ sessionsEnded: ended })})`,
  );
}

/** An event as stored and as it travels between instances. */
export interface StoredLiveEvent extends LiveEventAudience {
  id: number;
  data: LiveEvent;
}

/** An event to publish and who may receive it (decided by the access policy's audience rules). */
export interface LiveEventInput extends Partial<Pick<LiveEventAudience, 'forDrivers' | 'trailerOnly'>> {
  event: LiveEvent;
  audience: readonly string[];
}

/**
 * Publishes the events: one statement inserts their rows and sends each one's NOTIFY, in the order
 * given (docs/decisions/0028-checkout-throughput.md, Fewer statements). A failure is reported
 * and swallowed (a savepoint keeps the caller's transaction intact): the change itself has been
 * made, and the browsers' polls still show it.
 */
export async function publishLiveEvents(db: Db, inputs: readonly LiveEventInput[]): Promise<void> {
  if (inputs.length === 0) return;
  const rows = inputs.map((input, position) => ({ position, ...liveEventRecord(input) }));
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        with given as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as e(position int, type text, audience uuid[], for_drivers boolean, trailer_only boolean, data jsonb)
          order by position
        ), inserted as (
          insert into ${liveEvents} (type, audience, for_drivers, trailer_only, data)
          select type, audience, for_drivers, trailer_only, data from given order by position
          returning id, audience, for_drivers, trailer_only, data
        )
        select ${liveEventNotifySql('inserted')} from inserted order by id`);
    });
  } catch (error) {
    process.stderr.write(
      `live update not published: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
}

/** An event as a record of `jsonb_to_recordset`, keyed by the column of `live_events`. */
export function liveEventRecord(input: LiveEventInput) {
  return {
    type: input.event.type,
    audience: [...new Set(input.audience)],
    for_drivers: input.forDrivers ?? false,
    trailer_only: input.trailerOnly ?? false,
    data: input.event,
  };
}

/**
 * The NOTIFY payload of a row of `live_events` named `row` in SQL: the StoredLiveEvent the hub reads
 * (a few hundred bytes, far under NOTIFY's 8,000-byte limit).
 */
export const liveEventNotifySql = (row: string) =>
  sql.raw(`pg_notify('${LIVE_EVENTS_CHANNEL}', json_build_object(
    'id', ${row}.id, 'audience', ${row}.audience, 'forDrivers', ${row}.for_drivers,
    'trailerOnly', ${row}.trailer_only, 'data', ${row}.data
  )::text)`);

/** An order as its announcement needs it. */
export interface AnnouncedOrder extends OrderParties {
  id: string;
  orderNumber: string;
  status: string;
  isPickup: boolean;
  sellerDelivery: boolean;
  requiresTrailer: boolean;
}

/**
 * What an order's change tells whom: its parties that the order was placed or changed status, and,
 * for an order a driver delivers, the drivers who may take it that it became available (placed, or
 * handed back by its driver) or stopped being so (taken or cancelled while on offer).
 */
export function orderChangeEvents(
  order: AnnouncedOrder,
  from: OrderStatus | null,
  actorId: string | null,
): LiveEventInput[] {
  const status = order.status as OrderStatus;
  const events: LiveEventInput[] = [
    {
      event: {
        type: 'order.changed',
        orderId: order.id,
        orderNumber: order.orderNumber,
        status,
        from,
        actorId,
        buyerId: order.buyerId,
        sellerId: order.sellerId,
      },
      audience: orderAudience(order),
    },
  ];
  const isOffered = isOnOffer(order);
  if (isOffered || (fulfilmentOf(order) === 'driver' && from === 'pending')) {
    events.push({
      event: {
        type: 'offers.changed',
        orderId: order.id,
        orderNumber: order.orderNumber,
        isNew: isOffered,
      },
      audience: [],
      forDrivers: true,
      trailerOnly: order.requiresTrailer,
    });
  }
  return events;
}

/** One call where an order is placed or changes status: see {@link orderChangeEvents}. */
export function announceOrderChange(
  db: Db,
  order: AnnouncedOrder,
  change: { from: OrderStatus | null; actorId: string | null },
): Promise<void> {
  return publishLiveEvents(db, orderChangeEvents(order, change.from, change.actorId));
}
