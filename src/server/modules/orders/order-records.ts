/**
 * The orders module's public reads for other modules (docs/ARCHITECTURE.md, Boundaries): an order's
 * row and its people, for the decisions of conversations, reviews, uploads and the driver's offers.
 * Orders are written by this module's operations only.
 */
export { findOrderParties, findOrderRow } from './orders.queries';
