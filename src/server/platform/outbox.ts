import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/rows-of';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';

/**
 * The durable queue of mail and push (docs/decisions/0019-reaching-people.md). A row is written with
 * the caller's handle, so inside a transaction it exists only if the change that caused it commits.
 * A timer claims due rows (a lease, so two instances never send one twice at the same time), hands
 * each to its channel's deliverer outside any transaction, and records what came of it: sent, retried
 * later with a growing wait, dropped (the deliverer says it can never succeed), or failed once the
 * attempts run out. Nothing here runs inside a request.
 */

export type OutboxChannel = 'mail' | 'push' | 'account';

export interface OutboxItem {
  channel: OutboxChannel;
  /** What it says (names the template; shown to the admin). */
  kind: string;
  /** Whom it is for, when it is a user. */
  userId?: string | null;
  /** What the deliverer needs; must be JSON. */
  payload: unknown;
}

/** A claimed row, as its deliverer gets it. */
export interface ClaimedOutboxItem {
  id: number;
  channel: OutboxChannel;
  kind: string;
  userId: string | null;
  payload: unknown;
  /** 1 on the first try. */
  attempt: number;
}

/**
 * What a deliverer says of one try: `sent`; `retry` (a transient failure: the SMTP server is down,
 * the push service answered 5xx or 429); `drop` (it can never succeed: the push subscription is gone,
 * the address was refused for good). A thrown error counts as `retry`.
 */
export type DeliveryOutcome =
  { outcome: 'sent' } | { outcome: 'retry'; error: string } | { outcome: 'drop'; reason: string };

export type OutboxDeliverer = (item: ClaimedOutboxItem) => Promise<DeliveryOutcome>;

/** Waits before the 2nd, 3rd, … try; after the last the row is `failed`. About a day in all. */
export const OUTBOX_RETRY_DELAYS_MS: readonly number[] = [
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  2 * 60 * 60_000,
  6 * 60 * 60_000,
  12 * 60 * 60_000,
];
/** How long a claim holds a row: longer than any one delivery may take (SMTP and push time out first). */
const LEASE_MS = 2 * 60_000;
const CLAIM_LIMIT = 50;

/** Queues the items (one statement); use the transaction's handle when a change causes them. */
export async function enqueueOutbox(db: Db, items: readonly OutboxItem[]): Promise<void> {
  if (items.length === 0) return;
  await db.insert(outbox).values(
    items.map((item) => ({
      channel: item.channel,
      kind: item.kind,
      userId: item.userId ?? null,
      payload: item.payload,
    })),
  );
}

export interface DrainReport {
  sent: number;
  retried: number;
  dropped: number;
  failed: number;
}

/**
 * Sends what is due (up to one claim's worth; the timer comes back for the rest). Rows of a channel
 * with no deliverer are left queued. A row never tried is due whatever the clocks say: its
 * `next_attempt_at` is the database's clock at insert, which can be ahead of the app's `now` (another
 * host, or the same millisecond with microseconds the app's clock has not).
 */
export async function drainOutbox(
  db: Db,
  deliverers: Partial<Record<OutboxChannel, OutboxDeliverer>>,
  now: Date,
): Promise<DrainReport> {
  const channels = Object.keys(deliverers) as OutboxChannel[];
  const report: DrainReport = { sent: 0, retried: 0, dropped: 0, failed: 0 };
  if (channels.length === 0) return report;
  const claimed = await rowsOf<{
    id: string | number;
    channel: OutboxChannel;
    kind: string;
    user_id: string | null;
    payload: unknown;
    attempts: number;
  }>(
    db,
    sql`
    update ${outbox} set attempts = attempts + 1, locked_until = ${new Date(now.getTime() + LEASE_MS)}
    where id in (
      select id from ${outbox}
      where status = 'queued' and (attempts = 0 or next_attempt_at <= ${now})
        and (locked_until is null or locked_until <= ${now})
        and channel in (${sql.join(
          channels.map((channel) => sql`${channel}`),
          sql`, `,
        )})
      order by next_attempt_at, id
      limit ${CLAIM_LIMIT}
      for update skip locked
    )
    returning id, channel, kind, user_id, payload, attempts`,
  );
  for (const row of claimed) {
    const item: ClaimedOutboxItem = {
      id: Number(row.id),
      channel: row.channel,
      kind: row.kind,
      userId: row.user_id,
      payload: row.payload,
      attempt: row.attempts,
    };
    const deliver = deliverers[item.channel];
    let result: DeliveryOutcome;
    try {
      result = deliver ? await deliver(item) : { outcome: 'retry', error: 'no deliverer' };
    } catch (error) {
      result = { outcome: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
    await recordOutcome(db, item, result, now);
    if (result.outcome === 'sent') report.sent++;
    else if (result.outcome === 'drop') report.dropped++;
    else if (item.attempt > OUTBOX_RETRY_DELAYS_MS.length) report.failed++;
    else report.retried++;
  }
  return report;
}

async function recordOutcome(
  db: Db,
  item: ClaimedOutboxItem,
  result: DeliveryOutcome,
  now: Date,
): Promise<void> {
  if (result.outcome === 'sent') {
    await db.execute(
      sql`update ${outbox} set status = 'sent', finished_at = ${now}, locked_until = null, last_error = null where id = ${item.id}`,
    );
    return;
  }
  if (result.outcome === 'drop') {
    await db.execute(
      sql`update ${outbox} set status = 'dropped', finished_at = ${now}, locked_until = null, last_error = ${result.reason} where id = ${item.id}`,
    );
    return;
  }
  const delay = OUTBOX_RETRY_DELAYS_MS[item.attempt - 1];
  if (delay === undefined) {
    await db.execute(
      sql`update ${outbox} set status = 'failed', finished_at = ${now}, locked_until = null, last_error = ${result.error} where id = ${item.id}`,
    );
    return;
  }
  await db.execute(sql`
    update ${outbox} set next_attempt_at = ${new Date(now.getTime() + delay)}, locked_until = null,
      last_error = ${result.error}
    where id = ${item.id}`);
}
