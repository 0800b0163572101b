import { describe, expect, it } from 'vitest';
import { KeptPrivateReads } from './kept-private-reads';

/** A listener that hears nothing by itself; the test plays the database's notices. */
function keptWithNotices(maxEntries?: number, maxBytes?: number) {
  let notify: (table: string) => void = () => {};
  const database = {
    listen: async (_channel: string, handlers: { onNotify: (payload: string) => void }) => {
      notify = (table) => handlers.onNotify(table);
      return async () => {};
    },
  };
  const kept = new KeptPrivateReads(database, { warn: () => {} }, maxEntries, maxBytes);
  return { kept, notice: (table = '') => notify(table) };
}

const value =
  (text: string, expire = Infinity) =>
  async () => ({ value: text, expire, bytes: text.length });

describe('signed-in reads kept in memory (docs/decisions/0029-signed-in-reads-kept.md)', () => {
  it('keeps nothing before it listens, and drops everything on a notice without a table', async () => {
    const { kept, notice } = keptWithNotices();
    await kept.load('sessions', 'a', value('1'));
    expect(kept.get('sessions', 'a', 0)).toBeUndefined();
    await kept.start();
    await kept.load('sessions', 'a', value('1'));
    await kept.load('lists', 'l', value('2'));
    expect(kept.get<string>('sessions', 'a', 0)?.value).toBe('1');
    notice();
    expect(kept.get('sessions', 'a', 0)).toBeUndefined();
    expect(kept.get('lists', 'l', 0)).toBeUndefined();
  });

  it('drops only the lists of orders when an order, an item, a refund or a dispute changes', async () => {
    const { kept, notice } = keptWithNotices();
    await kept.start();
    for (const table of ['orders', 'order_items', 'refunds', 'disputes']) {
      await kept.load('sessions', 'a', value('user'));
      await kept.load('lists', 'l', value('orders'));
      notice(table);
      expect(kept.get('lists', 'l', 0), table).toBeUndefined();
      expect(kept.get<string>('sessions', 'a', 0)?.value, table).toBe('user');
    }
    for (const table of ['sessions', 'users', 'addresses']) {
      await kept.load('sessions', 'a', value('user'));
      await kept.load('lists', 'l', value('orders'));
      notice(table);
      expect(kept.get('sessions', 'a', 0), table).toBeUndefined();
      expect(kept.get('lists', 'l', 0), table).toBeUndefined();
    }
  });

  it('does not keep a read begun before a notice of its scope, nor one past its end', async () => {
    const { kept, notice } = keptWithNotices();
    await kept.start();
    await kept.load('sessions', 'a', async () => {
      notice('users');
      return { value: 'old', expire: Infinity };
    });
    expect(kept.get('sessions', 'a', 0)).toBeUndefined();
    await kept.load('lists', 'l', async () => {
      notice('orders');
      return { value: 'old', expire: Infinity };
    });
    expect(kept.get('lists', 'l', 0)).toBeUndefined();
    // An order's change during a session's read leaves that read good.
    await kept.load('sessions', 's', async () => {
      notice('orders');
      return { value: 'user', expire: Infinity };
    });
    expect(kept.get<string>('sessions', 's', 0)?.value).toBe('user');
    await kept.load('sessions', 'b', value('session', 1_000));
    expect(kept.get('sessions', 'b', 999)).toBeDefined();
    expect(kept.get('sessions', 'b', 1_000)).toBeUndefined();
  });

  it('holds at most its entries and its bytes, dropping the oldest first', async () => {
    const { kept } = keptWithNotices(3, 100);
    await kept.start();
    for (const key of ['a', 'b', 'c', 'd']) await kept.load('lists', key, value('x'));
    expect(['a', 'b', 'c', 'd'].map((key) => kept.get('lists', key, 0) !== undefined)).toEqual([
      false,
      true,
      true,
      true,
    ]);
    await kept.load('lists', 'big', value('y'.repeat(99)));
    expect(kept.size).toBe(2);
    expect(kept.get('lists', 'd', 0)).toBeDefined();
    expect(kept.get('lists', 'big', 0)).toBeDefined();
  });
});
