/**
 * The browser app's pages (docs/rules/screens-buyer.md, Routes and headers), shared by its router and the
 * server: the server answers any other address with the app's not-found page and status 404, so a
 * crawler or a link checker is told the truth (docs/ARCHITECTURE.md, Requests and errors).
 */

/** What a visitor may open. */
export const VISITOR_PAGES = ['/', '/products', '/products/:id', '/cart', '/support'] as const;

/** A signed-in user's pages; a visitor is asked to sign in there and comes back, never the 404. */
export const SIGNED_IN_PAGES = [
  '/checkout',
  '/payment',
  '/buyer/orders',
  '/seller/dashboard',
  '/driver/dashboard',
  '/admin',
  '/addresses',
  '/availability',
  '/profile',
  // The test payout provider's pages (docs/rules/money.md, Payout accounts).
  '/payouts/test-onboarding/:accountId',
  '/payouts/test-dashboard/:accountId',
] as const;

export const WEB_PAGES: readonly string[] = [...VISITOR_PAGES, ...SIGNED_IN_PAGES];

/** A page path as the router matches it: any case, a parameter is one segment, a trailing slash is fine. */
const PAGE_PATTERNS = WEB_PAGES.map(
  (page) =>
    new RegExp(
      `^${page
        .split('/')
        .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment))
        .join('/')
        .replace(/\/$/, '')}/?$`,
      'i',
    ),
);

/** Whether the browser app has a page at this path (no query). */
export function isWebPage(path: string): boolean {
  return PAGE_PATTERNS.some((pattern) => pattern.test(path));
}
