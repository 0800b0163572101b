/**
 * The declared entry points of the code's parts (docs/ARCHITECTURE.md, Boundaries), read by
 * eslint.config.js.
 *
 * A server module is entered through its `<module>.service.ts` and `<module>.routes.ts` (the app
 * registers the routes) and the operation files listed here; its queries, row-to-answer views and
 * helpers are its own.
 */
export const SERVER_MODULE_ENTRY_POINTS = {
  // The notifications timer does the account requests after their answer. The app builds the
  // two-factor operations' bag with the key of their secrets (src/server/platform/operations.ts).
  auth: ['passwords.ts', 'account-requests.ts', 'two-factor.service.ts', 'two-factor-codes.ts'],
  checkout: ['price-checkout.ts'],
  // The order of a driver who may take offers: accepting is an orders operation that asks it too.
  // Handing an order back (an orders operation) declines it for its driver in its transaction.
  deliveries: ['require-verified-driver.ts', 'driver-declines.ts'],
  // The command line's reconcile (src/server/reconcile.ts) runs the ledger's checks, and with
  // --provider the match against the provider's balance transactions.
  ledger: ['ledger-csv.ts', 'reconcile.ts', 'provider-reconcile.ts'],
  // Modules queue their mail in the transaction of their change (docs/decisions/0019-reaching-people.md).
  notifications: ['mail-layout.ts'],
  orders: [
    'accept-order.ts',
    'deliver-order.ts',
    'delivery-code.ts',
    'get-order.ts',
    'hand-back-order.ts',
    'list-orders.ts',
    // The order operations' bag, which the deliveries' decline takes too (built by platform/operations.ts).
    'order-deps.ts',
    'order-number.ts',
    'order-records.ts',
    // The steps an order announces and the money follows (docs/ARCHITECTURE.md, Money flows one way).
    'order-steps.ts',
    'place-orders.ts',
    'set-delivery-photo.ts',
    'set-estimated-time.ts',
  ],
  payments: ['payment-deps.ts'],
  payouts: [
    'pay-payout.ts',
    'payout-deps.ts',
    'payout-jobs.ts',
    'record-order-payouts.ts',
    'settle-payouts.ts',
    // A refund or a lost dispute takes back the order's shares; a failed refund gives them back.
    'take-back-order-share.ts',
    'undo-take-back.ts',
  ],
  // The app hands the orders' operations the money that follows their steps; a lost dispute is
  // taken from the orders of its payment as their refunds are.
  refunds: ['follow-order-steps.ts', 'lost-dispute.ts'],
  products: ['product-stock.ts'],
  uploads: ['image-copies.ts'],
  users: ['user-records.ts'],
};

/**
 * Money flows one way (docs/ARCHITECTURE.md, Money flows one way): a module of this list may import
 * the ones after it, never one before it. Orders come last: they announce their steps
 * (`orders/order-steps.ts`) and the money follows; they never call it.
 */
export const MONEY_FLOW = ['payments', 'disputes', 'refunds', 'payouts', 'ledger', 'orders'];

/**
 * A web feature is used by another only through the files listed here (the app's pages may use
 * any of a feature's files); everything else in it is its own.
 */
export const WEB_FEATURE_ENTRY_POINTS = {
  // The payment page pays for the cart and empties it.
  cart: ['use-cart.ts'],
  // What the checkout kept for the payment page, and the body both send.
  checkout: ['checkout-session.ts'],
  // Live updates refresh the offers (by their key alone: docs/decisions/0014-first-load.md).
  deliveries: ['api/delivery-keys.ts'],
  messages: [
    // Live updates refresh conversations and toast a message unless its conversation is on screen.
    'api/message-keys.ts',
    'open-conversations.ts',
    // Every order's details hold its conversation (docs/rules/screens-buyer.md, Order screens).
    'components/order-messages-panel.tsx',
  ],
  // The orders' key and list: refreshed by live updates, filled in by a payment; its failure text.
  // The orders handed back from this page: their offer event is no news to the driver who did it.
  orders: ['api/get-orders.ts', 'api/order-keys.ts', 'handed-back-orders.ts'],
  reviews: [
    // Live updates refresh an order's reviews.
    'api/review-keys.ts',
    // An order's details ask for its reviews, and a party's profile shows theirs.
    'components/review-prompts.tsx',
    'components/user-reviews-list.tsx',
  ],
  // Payouts sit under the earnings key, so an order that finishes refreshes both.
  seller: ['api/earnings-keys.ts'],
  // The profile photo opens one picker from two buttons, so it builds on the hook, not on
  // ImageUploadButton; pages pass the ready-made uploaders to the other features.
  uploads: ['use-image-upload.ts', 'components/upload-notices.tsx', 'components/upload-progress.tsx'],
};
