/**
 * Every earnings query starts with this key: an order that finishes refreshes them all. A module
 * without the earnings' schemas: the live updates of every page invalidate by it
 * (docs/decisions/0014-first-load.md).
 */
export const EARNINGS_KEY = ['/api/earnings'] as const;
