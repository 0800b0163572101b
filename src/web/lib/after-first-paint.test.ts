// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_CHUNKS_ID } from '@domain/first-screen';
import { afterFirstContentfulPaint, listPageChunks } from './after-first-paint';

/** A stand-in for the browser's paint timing: `paint()` records the first contentful paint. */
function paintTiming() {
  const observers = new Set<() => void>();
  let painted = false;
  class FakeObserver {
    static supportedEntryTypes = ['paint', 'resource'];
    private readonly notify: () => void;
    constructor(callback: () => void) {
      this.notify = callback;
    }
    observe() {
      observers.add(this.notify);
    }
    disconnect() {
      observers.delete(this.notify);
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  vi.spyOn(performance, 'getEntriesByName').mockImplementation((name) =>
    painted && name === 'first-contentful-paint' ? [{} as PerformanceEntry] : [],
  );
  return {
    paint: () => {
      painted = true;
      for (const notify of [...observers]) notify();
    },
    watching: () => observers.size,
  };
}

function pageWithChunks(...hrefs: string[]) {
  const list = document.createElement('template');
  list.id = PAGE_CHUNKS_ID;
  list.innerHTML = hrefs.map((href) => `<link rel="modulepreload" href="${href}">`).join('');
  document.body.append(list);
}

const listed = () =>
  [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href'));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.head.replaceChildren();
  document.body.replaceChildren();
});

describe("a server-rendered page's chunks (docs/decisions/0014-first-load.md)", () => {
  it('are put in the document only once the page has painted, every one of them', async () => {
    const timing = paintTiming();
    pageWithChunks('/assets/page-1.js', '/assets/shared-1.js', '/assets/icon-1.js');
    let done = false;
    const listing = listPageChunks().then(() => (done = true));
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    // Nothing is fetched while the first paint is still to come.
    expect(listed()).toEqual([]);
    expect(done).toBe(false);
    timing.paint();
    await listing;
    expect(listed()).toEqual(['/assets/page-1.js', '/assets/shared-1.js', '/assets/icon-1.js']);
    expect(timing.watching()).toBe(0);
  });

  it('are put in at once after a paint that has already happened, or on a page hidden in the background', async () => {
    const timing = paintTiming();
    timing.paint();
    pageWithChunks('/assets/page-2.js');
    await listPageChunks();
    expect(listed()).toEqual(['/assets/page-2.js']);

    document.head.replaceChildren();
    vi.restoreAllMocks();
    paintTiming();
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    vi.useFakeTimers();
    let done = false;
    void afterFirstContentfulPaint().then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(true);
  });

  it('never wait for a paint for ever: three seconds at most', async () => {
    vi.useFakeTimers();
    const timing = paintTiming();
    let done = false;
    void afterFirstContentfulPaint().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(timing.watching()).toBe(0);
  });

  it('leave a page without such a list as it is', async () => {
    paintTiming();
    await listPageChunks();
    expect(listed()).toEqual([]);
  });
});
