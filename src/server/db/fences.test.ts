import { afterEach, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { Fences } from './client';

/**
 * The fences of the listening connection when it is slow (docs/decisions/0029-signed-in-reads-kept.md,
 * The fence): a fence not heard within a second answers false, and until one is heard again the
 * callers are answered false at once (they read the database) instead of each waiting its second.
 */

/** A connection whose statements are recorded and never answered: the test plays the notifications. */
function silentConnection() {
  const sent: string[] = [];
  const client = {
    query: (text: string) => {
      sent.push(text);
      return new Promise(() => {});
    },
  } as unknown as pg.Client;
  return { client, sent };
}

const tokenOf = (statement: string) => /'([^']+)'\)$/.exec(statement)?.[1];
const channelOf = (statement: string) => /pg_notify\('([^']+)'/.exec(statement)?.[1];

afterEach(() => {
  vi.useRealTimers();
});

describe('fences on a slow connection', () => {
  it('answers false after a second, then at once until a fence is heard again', async () => {
    vi.useFakeTimers();
    const fences = new Fences();
    const { client, sent } = silentConnection();
    fences.use(client);

    const first = fences.fence();
    const second = fences.fence();
    // Asked in the same turn of the event loop: one fence, sent when the turn ends, for both.
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await first).toBe(false);
    expect(await second).toBe(false);

    // Slow: answered at once, one probe on its way.
    expect(await fences.fence()).toBe(false);
    expect(await fences.fence()).toBe(false);
    expect(sent).toHaveLength(2);
    const probe = sent[1]!;
    fences.heard({ channel: channelOf(probe)!, payload: tokenOf(probe), processId: 1 });

    // Heard again: a caller waits for its fence and is answered true.
    const third = fences.fence();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(3);
    const last = sent[2]!;
    // One asking while that fence is on its way waits for a fence sent after it asked.
    const fourth = fences.fence();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(3);
    // A late answer to an older fence answers nobody.
    fences.heard({ channel: channelOf(last)!, payload: tokenOf(probe), processId: 1 });
    fences.heard({ channel: channelOf(last)!, payload: tokenOf(last), processId: 1 });
    expect(await third).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(4);
    const next = sent[3]!;
    fences.heard({ channel: channelOf(next)!, payload: tokenOf(next), processId: 1 });
    expect(await fourth).toBe(true);
  });

  it('answers false at once when the connection is gone, and every waiter when it goes', async () => {
    const fences = new Fences();
    expect(await fences.fence()).toBe(false);
    const { client } = silentConnection();
    fences.use(client);
    const waiting = [fences.fence(), fences.fence()];
    fences.use(undefined);
    expect(await Promise.all(waiting)).toEqual([false, false]);
  });
});
