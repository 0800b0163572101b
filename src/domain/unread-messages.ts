// zod/mini: the header of every signed-in page reads the unread counts, and building classic
// schemas is no part of showing a page (docs/decisions/0014-first-load.md).
import * as z from 'zod/mini';

/**
 * Unread counts (docs/rules/selling.md, Reviews and messages): one conversation with messages the
 * caller has not opened yet, for the header.
 */
export const unreadThreadSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('order'),
    orderId: z.string(),
    orderNumber: z.string(),
    /** The caller's link to the order, which decides the page it opens on. */
    as: z.enum(['buyer', 'seller', 'driver']),
    count: z.int(),
    lastAt: z.string(),
  }),
  z.object({
    kind: z.literal('product'),
    productId: z.string(),
    productName: z.string(),
    buyerId: z.string(),
    /** The other person: the seller's name for the buyer, the buyer's for the seller. */
    withName: z.string(),
    as: z.enum(['buyer', 'seller']),
    count: z.int(),
    lastAt: z.string(),
  }),
]);
export type UnreadThread = z.infer<typeof unreadThreadSchema>;

export const unreadMessagesSchema = z.object({
  total: z.int(),
  threads: z.array(unreadThreadSchema),
});
export type UnreadMessages = z.infer<typeof unreadMessagesSchema>;
