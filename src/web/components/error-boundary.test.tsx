// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import {
  CHUNK_FAILED_MESSAGE,
  ErrorBoundary,
  isChunkLoadError,
  OptionalPart,
  RENDER_FAILED_MESSAGE,
} from './error-boundary';

let reload: ReturnType<typeof vi.fn>;
beforeEach(() => {
  reload = vi.fn();
  vi.stubGlobal('location', { ...window.location, reload });
  // React and the boundary report the caught error on the console; that is expected here.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const state = { broken: true };
function Fragile() {
  if (state.broken) throw new Error('cannot draw');
  return <p>Drawn</p>;
}

describe('a part of the app that fails (docs/rules/running.md, Bad input and failure)', () => {
  it('says a page whose code could not be fetched could not be loaded, and Try Again reloads the app', async () => {
    const Page = lazy(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/page-1234.js')),
    );
    render(
      <ErrorBoundary>
        <Suspense fallback={<p>Loading...</p>}>
          <Page />
        </Suspense>
      </ErrorBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(CHUNK_FAILED_MESSAGE);
    expect(alert).not.toHaveTextContent('/assets/');
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('says something went wrong when a part throws, and Try Again draws it again once it can', () => {
    state.broken = true;
    render(
      <>
        <h1>Header</h1>
        <ErrorBoundary>
          <Fragile />
        </ErrorBoundary>
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(RENDER_FAILED_MESSAGE);
    expect(screen.getByRole('heading', { name: 'Header' })).toBeVisible();
    state.broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Drawn')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });

  it('clears the error when its reset key changes (another address), inside the frame it is given', () => {
    state.broken = true;
    const page = (location: string) => (
      <ErrorBoundary resetKey={location} frame={(message) => <main aria-label="Page">{message}</main>}>
        <Fragile />
      </ErrorBoundary>
    );
    const { rerender } = render(page('/a'));
    expect(screen.getByRole('main', { name: 'Page' })).toContainElement(screen.getByRole('alert'));
    state.broken = false;
    rerender(page('/b'));
    expect(screen.getByText('Drawn')).toBeVisible();
  });

  it('tells a failed fetch of code from other errors, as each browser words it', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://x/a.js',
      'Importing a module script failed.',
      'error loading dynamically imported module: https://x/a.js',
    ])
      expect(isChunkLoadError(new TypeError(message)), message).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });

  it('keeps the stand-in of a part the page can do without while it loads and when its code cannot be fetched', async () => {
    let fail: (error: Error) => void = () => undefined;
    const Part = lazy(() => new Promise<{ default: () => null }>((_, reject) => (fail = reject)));
    render(
      <>
        <h1>Header</h1>
        <OptionalPart fallback={<button type="button">Menu</button>}>
          <Part />
        </OptionalPart>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Menu' })).toBeVisible();
    fail(new TypeError('Importing a module script failed.'));
    await vi.waitFor(() => expect(console.error).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: 'Menu' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Header' })).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
