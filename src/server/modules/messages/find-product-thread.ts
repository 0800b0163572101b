import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../platform/errors';
import { canViewMessageThread } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { SELLER_NAMES_BUYER } from '../../../domain/messages';
import { findProductSeller } from './messages.queries';

export const CONVERSATION_NOT_FOUND = 'Conversation not found';

export interface ProductConversation {
  productId: string;
  productName: string;
  buyerId: string;
  sellerId: string;
}

/**
 * The product conversation the actor means (docs/rules/selling.md, Reviews and messages): a
 * buyer's own, or for the product's seller the one of the buyer they name. Anyone who is neither
 * that buyer nor the seller gets 404, whether the conversation exists or not.
 */
export async function findProductThread(
  db: Db,
  actor: Actor,
  productId: string,
  buyerId: string | undefined,
): Promise<ProductConversation> {
  const product = await findProductSeller(db, productId);
  if (!product) throw notFound('Product not found');
  if (product.sellerId === actor.id && buyerId === undefined) {
    throw badRequest(`Invalid request. buyerId: ${SELLER_NAMES_BUYER}`, { buyerId: SELLER_NAMES_BUYER });
  }
  const thread = {
    productId,
    productName: product.name,
    buyerId: buyerId ?? actor.id,
    sellerId: product.sellerId,
  };
  if (!canViewMessageThread(actor, { kind: 'product', ...thread })) throw notFound(CONVERSATION_NOT_FOUND);
  return thread;
}
