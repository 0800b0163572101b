/**
 * The query keys of conversations; the live updates invalidate them by these prefixes
 * (docs/rules/live-updates.md, Live updates).
 */
export const PRODUCT_MESSAGES_KEY = ['/api/product-messages'] as const;
export const PRODUCT_THREADS_KEY = ['/api/product-messages/threads'] as const;
export const ORDER_MESSAGES_KEY = ['/api/messages/order'] as const;
export const UNREAD_MESSAGES_KEY = ['/api/messages/unread'] as const;

/** A product conversation: the buyer's own (`buyerId` absent) or, for the seller, a buyer's. */
export function productMessagesKey(productId: string, buyerId?: string) {
  return [...PRODUCT_MESSAGES_KEY, productId, buyerId ?? 'own'] as const;
}

export function orderMessagesKey(orderId: string) {
  return [...ORDER_MESSAGES_KEY, orderId] as const;
}
