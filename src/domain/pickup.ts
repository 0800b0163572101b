/**
 * Pickup is offered for a checkout only when every one of its items offers pickup
 * (docs/rules/catalog-and-orders.md, Checkout and orders). The server prices checkouts by it and the browser
 * enables the Pickup choice by it. A module without zod, for the checkout page's first load
 * (docs/decisions/0014-first-load.md).
 */
export function isPickupAvailable(items: readonly { offerPickup: boolean | undefined }[]): boolean {
  return items.length > 0 && items.every((item) => item.offerPickup === true);
}
