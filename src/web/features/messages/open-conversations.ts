/**
 * The conversations on screen now. A new message in one of them needs no toast: it appears where
 * the user is looking (docs/rules/live-updates.md, Live updates).
 */
const open = new Map<string, number>();

export function orderConversation(orderId: string): string {
  return `order:${orderId}`;
}

export function productConversation(productId: string, buyerId: string): string {
  return `product:${productId}:${buyerId}`;
}

/** Marks the conversation as shown; answers the function that unmarks it. */
export function showConversation(key: string): () => void {
  open.set(key, (open.get(key) ?? 0) + 1);
  return () => {
    const count = (open.get(key) ?? 1) - 1;
    if (count <= 0) open.delete(key);
    else open.set(key, count);
  };
}

export function isConversationShown(key: string): boolean {
  return open.has(key);
}
