import { afterEach, describe, expect, it, vi } from 'vitest';
import { installYieldDuringLoad, yieldDuringLoad } from './yield-during-load';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('yieldDuringLoad', () => {
  it('gives the browser a turn once 8 ms have passed since its last one, and not before', async () => {
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const first = yieldDuringLoad();
    expect(first).toBeInstanceOf(Promise);
    // The wait outlasts every microtask queued meanwhile: it goes through the event loop.
    let ended = false;
    void first!.then(() => (ended = true));
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();
    expect(ended).toBe(false);
    await first;
    expect(ended).toBe(true);
    now += 7;
    expect(yieldDuringLoad()).toBeUndefined();
    now += 1;
    const second = yieldDuringLoad();
    expect(second).toBeInstanceOf(Promise);
    await second;
    // The slice starts again when the turn ends.
    expect(yieldDuringLoad()).toBeUndefined();
  });

  it('is what the built chunks call once installed', () => {
    installYieldDuringLoad();
    expect((globalThis as { __yieldDuringLoad?: unknown }).__yieldDuringLoad).toBe(yieldDuringLoad);
  });
});
