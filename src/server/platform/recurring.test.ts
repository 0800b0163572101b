import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRecurring } from './recurring';

/** The timer of unfinished work (docs/decisions/0013-money-movement.md), on vitest's fake clock. */
afterEach(() => {
  vi.useRealTimers();
});

/** A promise the test settles, to hold a run open. */
function gate() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('startRecurring', () => {
  it('runs once when ready, then every interval, never two runs at once, and stops on close', async () => {
    vi.useFakeTimers();
    const app = Fastify();
    let runs = 0;
    let running = 0;
    let overlapped = false;
    let hold = gate();
    startRecurring(app, {
      name: 'test',
      everyMs: 1000,
      run: async () => {
        runs += 1;
        running += 1;
        if (running > 1) overlapped = true;
        await hold.promise;
        running -= 1;
      },
    });
    expect(runs).toBe(0);
    await app.ready();
    expect(runs).toBe(1);
    // The first run is still going: the ticks meanwhile are skipped, not queued.
    await vi.advanceTimersByTimeAsync(3500);
    expect(runs).toBe(1);
    hold.open();
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toBe(2);
    hold = gate();
    hold.open();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(3);
    expect(overlapped).toBe(false);
    await app.close();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(3);
  });

  it('logs a failed run and runs again at the next tick', async () => {
    vi.useFakeTimers();
    const app = Fastify();
    const errors: unknown[] = [];
    vi.spyOn(app.log, 'error').mockImplementation((...args: unknown[]) => {
      errors.push(args[0]);
    });
    let runs = 0;
    startRecurring(app, {
      name: 'flaky',
      everyMs: 1000,
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error('provider down');
      },
    });
    await app.ready();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([expect.objectContaining({ job: 'flaky' })]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    await app.close();
  });

  it('waits for a run in progress when the app closes, and an interval of 0 turns the job off', async () => {
    const app = Fastify();
    const hold = gate();
    let finished = false;
    startRecurring(app, {
      name: 'slow',
      everyMs: 60_000,
      run: async () => {
        await hold.promise;
        finished = true;
      },
    });
    let ranOff = false;
    startRecurring(app, { name: 'off', everyMs: 0, run: async () => (ranOff = true) });
    await app.ready();
    const closing = app.close();
    hold.open();
    await closing;
    expect(finished).toBe(true);
    expect(ranOff).toBe(false);
  });
});
