import { describe, expect, it } from 'vitest';
import { KeptPrivateReads } from './kept-private-reads';

/** A listener that hears nothing by itself; the test plays the database's notices. */
function keptWithNotices(maxEntries?: number, maxBytes?: number) {
  let notify: () => void = () => {};
  const database = {
    listen: async (_channel: string, handlers: { onNotify: (payload: string) => void }) => {
      notify = () => handlers.onNotify('');
      return async () => {};
    },
  };
  const kept = new KeptPrivateReads(database, { warn: () => {} }, maxEntries, maxBytes);
  return { kept, notice: () => notify() };
}

const value =
  (text: string, expire = Infinity) =>
  async () => ({ value: text, expire, bytes: text.length });

describe('signed-in reads kept in memory (docs/decisions/0015-catalog-and-checkout-throughput.md)', () => {
  it('keeps nothing before it listens, and drops everything on a notice', async () => {
    const { kept, notice } = keptWithNotices();
    await kept.load('a', value('1'));
    expect(kept.get('a', 0)).toBeUndefined();
    await kept.start();
    await kept.load('a', value('1'));
    expect(kept.get<string>('a', 0)?.value).toBe('1');
    notice();
    expect(kept.get('a', 0)).toBeUndefined();
  });

  it('does not keep a read begun before a notice, nor one past its end', async () => {
    const { kept, notice } = keptWithNotices();
    await kept.start();
    await kept.load('a', async () => {
      notice();
      return { value: 'old', expire: Infinity };
    });
    expect(kept.get('a', 0)).toBeUndefined();
    await kept.load('b', value('session', 1_000));
    expect(kept.get('b', 999)).toBeDefined();
    expect(kept.get('b', 1_000)).toBeUndefined();
  });

  it('holds at most its entries and its bytes, dropping the oldest first', async () => {
    const { kept } = keptWithNotices(3, 100);
    await kept.start();
    for (const key of ['a', 'b', 'c', 'd']) await kept.load(key, value('x'));
    expect(['a', 'b', 'c', 'd'].map((key) => kept.get(key, 0) !== undefined)).toEqual([
      false,
      true,
      true,
      true,
    ]);
    await kept.load('big', value('y'.repeat(99)));
    expect(kept.size).toBe(2);
    expect(kept.get('d', 0)).toBeDefined();
    expect(kept.get('big', 0)).toBeDefined();
  });
});
