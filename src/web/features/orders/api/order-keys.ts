/**
 * Every order query starts with this key: invalidating it refreshes lists, items and timelines. A
 * module without the orders' schemas: the live updates of every page invalidate by it
 * (docs/decisions/0014-first-load.md).
 */
export const ORDERS_KEY = ['/api/orders'] as const;
