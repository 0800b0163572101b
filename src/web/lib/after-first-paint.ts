import { PAGE_CHUNKS_ID } from '@domain/first-screen';
import { yieldDuringLoad } from './yield-during-load';

/**
 * Kept once the browser has shown the page's first content (its `first-contentful-paint` entry).
 * Kept at once where no such paint will come (a tab in the background, a browser without paint
 * timing), and after `atMostMs` in any case: nothing waits on a paint for ever.
 */
export function afterFirstContentfulPaint(atMostMs = 3000): Promise<void> {
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  if (
    document.visibilityState !== 'visible' ||
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('paint') ||
    painted()
  ) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new PerformanceObserver(() => {
      if (painted()) done();
    });
    const timer = setTimeout(done, atMostMs);
    observer.observe({ type: 'paint' });
  });
}

/**
 * The chunks of a page the server rendered, listed in its HTML as modulepreload links inside a
 * `<template>`, put in the document once the page has painted, a few at a time
 * (docs/decisions/0014-first-load.md, The page's chunks after the first paint): fetched from the
 * HTML they competed with the first paint, and each link the browser starts a request for is
 * main-thread work, so the links go in slices of at most 8 ms with the browser's turn in between.
 * The app's loader, finding a link for each chunk, adds none of its own. Kept at once on a page
 * with no such list.
 */
export async function listPageChunks(): Promise<void> {
  const list = document.getElementById(PAGE_CHUNKS_ID);
  if (!(list instanceof HTMLTemplateElement)) return;
  await afterFirstContentfulPaint();
  for (const link of [...list.content.children]) {
    await yieldDuringLoad();
    document.head.append(link);
  }
}
