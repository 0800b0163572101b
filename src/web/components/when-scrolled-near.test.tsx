// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { lazy, useState } from 'react';
import { CHUNK_FAILED_MESSAGE } from './error-boundary';
import { WhenScrolledNear } from './when-scrolled-near';

/** A stand-in for the browser's IntersectionObserver: the test says when the part comes near. */
class FakeObserver {
  static all: FakeObserver[] = [];
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeObserver.all.push(this);
  }
  observed: Element[] = [];
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.observed = [];
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
  /** The observed element comes within the margin (or not). */
  report(isIntersecting: boolean) {
    const entries = this.observed.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry);
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}

beforeEach(() => {
  FakeObserver.all = [];
  // React and the boundary report a caught error on the console; that is expected here.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const watching = () => FakeObserver.all.filter((observer) => observer.observed.length > 0);

describe('WhenScrolledNear', () => {
  it('says what is coming until the part is scrolled near, then draws it and keeps it', () => {
    render(
      <WhenScrolledNear fallback={<p>Loading your products...</p>}>
        <p>Old Garden Bench</p>
      </WhenScrolledNear>,
    );
    expect(screen.getByText('Loading your products...')).toBeInTheDocument();
    expect(screen.queryByText('Old Garden Bench')).toBeNull();
    const [observer] = watching();
    expect(observer?.options?.rootMargin).toBe('600px');

    // Still far below: nothing drawn.
    act(() => observer?.report(false));
    expect(screen.queryByText('Old Garden Bench')).toBeNull();

    act(() => observer?.report(true));
    expect(screen.getByText('Old Garden Bench')).toBeInTheDocument();
    expect(screen.queryByText('Loading your products...')).toBeNull();
    // Drawn once, it is no longer watched.
    expect(watching()).toHaveLength(0);
  });

  it('draws at once when asked, and keeps it when no longer asked', () => {
    function Asked() {
      const [now, setNow] = useState(true);
      return (
        <>
          <button onClick={() => setNow(false)}>Forget</button>
          <WhenScrolledNear fallback={<p>Loading your earnings...</p>} now={now}>
            <p>Total Earnings</p>
          </WhenScrolledNear>
        </>
      );
    }
    render(<Asked />);
    expect(screen.getByText('Total Earnings')).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Forget' }).click());
    expect(screen.getByText('Total Earnings')).toBeInTheDocument();
  });

  it('draws the part where the browser cannot tell what is near', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(
      <WhenScrolledNear fallback={<p>Loading your products...</p>}>
        <p>Old Garden Bench</p>
      </WhenScrolledNear>,
    );
    expect(screen.getByText('Old Garden Bench')).toBeInTheDocument();
  });

  it('says in its place that its code could not be fetched, and the rest of the page stays', async () => {
    const Gone = lazy(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/later.js')),
    );
    render(
      <>
        <h2>Orders</h2>
        <WhenScrolledNear fallback={<p>Loading your products...</p>}>
          <Gone />
        </WhenScrolledNear>
      </>,
    );
    act(() => watching()[0]?.report(true));
    expect(await screen.findByText(CHUNK_FAILED_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Orders' })).toBeInTheDocument();
  });
});
