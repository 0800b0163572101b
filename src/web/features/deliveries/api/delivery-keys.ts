/**
 * Every available-orders query starts with this key: accepting or declining refreshes them all. A
 * module without the offers' schemas: the live updates of every page invalidate by it
 * (docs/decisions/0014-first-load.md).
 */
export const AVAILABLE_ORDERS_KEY = ['/api/orders/available'] as const;
