import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWebPage, SIGNED_IN_PAGES, VISITOR_PAGES, WEB_PAGES } from '@domain/web-pages';

/**
 * The server answers 404 off the pages of src/domain/web-pages.ts (docs/ARCHITECTURE.md, Requests
 * and errors): the router must route exactly those.
 */
describe('the pages the server knows', () => {
  it('are the paths of the route table', () => {
    const source = fs.readFileSync(path.join(import.meta.dirname, 'router.tsx'), 'utf8');
    const routed = new Set([...source.matchAll(/<Route path="([^"]+)"/g)].map(([, page]) => page));
    for (const page of SIGNED_IN_PAGES) routed.add(page);
    expect([...routed].sort()).toEqual([...WEB_PAGES].sort());
    expect(source).toContain('SIGNED_IN_PAGES');
  });

  it('match a path as the router does', () => {
    for (const page of VISITOR_PAGES) expect(isWebPage(page), page).toBe(true);
    expect(isWebPage('/products/123')).toBe(true);
    expect(isWebPage('/Products/')).toBe(true);
    expect(isWebPage('/payouts/test-dashboard/acct_1')).toBe(true);
    expect(isWebPage('/products/1/2')).toBe(false);
    expect(isWebPage('/no-such-page')).toBe(false);
    expect(isWebPage('/payouts/test-dashboard')).toBe(false);
  });
});
