import { z } from 'zod';
import { roleSchema } from './roles';
import { idSchema } from './users';
import { visibleText } from './visible-text-schema';
import { formatCount } from './format-count';

/**
 * Product and order messages (docs/rules/selling.md, Reviews and messages): the requests, the
 * answers and the limits shared by the server and the message boxes.
 */

/** The longest message, in characters (docs/rules/screens-shared.md, Constants). */
export const MESSAGE_MAX_LENGTH = 2000;

/** Both boxes refresh every 30 s while open; live updates usually come first (Constants). */
export const MESSAGES_POLL_MS = 30_000;

/** Heights of the message area (docs/rules/screens-shared.md, Constants). */
export const PRODUCT_MESSAGES_HEIGHT_PX = 200;
export const ORDER_MESSAGES_HEIGHT_PX = 400;

export const MESSAGE_EMPTY = 'Write a message before sending';
export const MESSAGE_TOO_LONG = `A message has at most ${formatCount(MESSAGE_MAX_LENGTH)} characters`;

/**
 * The text of a message: trimmed, never blank or whitespace only, at most 2,000 characters
 * (docs/rules/selling.md, Reviews and messages), once invisible characters are removed (Bad input and
 * failure).
 */
export const messageContentSchema = visibleText(
  z.string().trim().min(1, MESSAGE_EMPTY).max(MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG),
);

/** Whether the box may send this text: the same rule as the server's. */
export function canSendMessage(text: string): boolean {
  return messageContentSchema.safeParse(text).success;
}

// Product messages

/**
 * GET /api/product-messages: a buyer reads their own thread of the product; its seller names the
 * buyer whose thread to read.
 */
export const productMessagesQuerySchema = z.strictObject({
  productId: idSchema,
  buyerId: idSchema.optional(),
});
export type ProductMessagesQuery = z.infer<typeof productMessagesQuerySchema>;

/** POST /api/product-messages: a buyer writes in their own thread; the seller answers a buyer's. */
export const productMessageBodySchema = z.strictObject({
  productId: idSchema,
  content: messageContentSchema,
  /** Only the seller sends it: the buyer whose thread this answer goes to. */
  buyerId: idSchema.optional(),
});
export type ProductMessageBody = z.infer<typeof productMessageBodySchema>;

export const productMessageSchema = z.object({
  id: z.string(),
  productId: z.string(),
  buyerId: z.string(),
  sellerId: z.string(),
  senderId: z.string(),
  content: z.string(),
  createdAt: z.string(),
});
export type ProductMessage = z.infer<typeof productMessageSchema>;

/** What the seller says when they read or answer without naming the buyer. */
export const SELLER_NAMES_BUYER = "Choose which buyer's conversation this is";

/** One buyer's conversation about one of the caller's products, for the seller's Messages tab. */
export const productThreadSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  productImageUrl: z.string().nullable(),
  buyerId: z.string(),
  buyerName: z.string(),
  lastMessage: z.object({ content: z.string(), senderId: z.string(), createdAt: z.string() }),
  messageCount: z.number().int(),
  unreadCount: z.number().int(),
});
export type ProductThread = z.infer<typeof productThreadSchema>;

// Order messages

export const orderMessagesParamsSchema = z.object({ orderId: idSchema });

/** POST /api/messages. */
export const orderMessageBodySchema = z.strictObject({
  orderId: idSchema,
  content: messageContentSchema,
});
export type OrderMessageBody = z.infer<typeof orderMessageBodySchema>;

export const orderMessageSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  senderId: z.string(),
  content: z.string(),
  createdAt: z.string(),
  sender: z.object({
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    /** How the sender is linked to the order (buyer, seller, driver, or admin for an admin). */
    role: roleSchema,
  }),
});
export type OrderMessage = z.infer<typeof orderMessageSchema>;
