import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadableLazy } from './preloadable-lazy';

describe('preloadableLazy (docs/decisions/0014-first-load.md, The first screen in the HTML)', () => {
  it('waits for its code like React.lazy, and loads it once', async () => {
    let loads = 0;
    const { Component, preload } = preloadableLazy(async () => {
      loads += 1;
      return ({ name }: { name: string }) => <p>Hello {name}</p>;
    });
    const page = (
      <Suspense fallback={<p>Loading</p>}>
        <Component name="Ada" />
      </Suspense>
    );
    expect(renderToString(page)).toContain('Loading');
    await preload();
    await preload();
    expect(renderToString(page)).toContain('Hello <!-- -->Ada');
    expect(loads).toBe(1);
  });

  it('renders at once when preloaded before its first render', async () => {
    const { Component, preload } = preloadableLazy(async () => () => <p>Ready</p>);
    await preload();
    expect(
      renderToString(
        <Suspense fallback={<p>Loading</p>}>
          <Component />
        </Suspense>,
      ),
    ).toContain('Ready');
  });
});
