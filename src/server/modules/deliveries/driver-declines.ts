/**
 * The deliveries module's record of declines for other modules (docs/ARCHITECTURE.md, Boundaries):
 * a driver who hands an order back declines it in the same transaction
 * (src/server/modules/orders/hand-back-order.ts), so it leaves their list of offers.
 */
export { recordDecline } from './deliveries.queries';
