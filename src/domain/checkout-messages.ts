/**
 * The checkout page's own texts, in a module without zod: the page takes them without building the
 * checkout schemas, which load with its first quote (docs/decisions/0014-first-load.md).
 */

/** The checkout's validation texts (docs/rules/catalog-and-orders.md, Checkout and orders). */
export const MISSING_INFORMATION_TITLE = 'Missing information';
export const SELECT_DELIVERY_ADDRESS = 'Please select a delivery address';
export const SELECTED_ADDRESS_NOT_FOUND = 'Selected address not found';
export const SELECT_PICKUP_TIME = 'Please select a pickup time from the seller';
