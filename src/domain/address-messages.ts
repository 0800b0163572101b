/**
 * Address texts the checkout page shows, in a module without zod: the page takes them without
 * building the address schemas (docs/decisions/0014-first-load.md).
 */

/** Texts of the checkout and the order view (docs/rules/catalog-and-orders.md, Addresses, availability and slots). */
export const PICKUP_ADDRESS_NOT_AVAILABLE = 'Pickup address not available';
