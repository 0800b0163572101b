import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '@domain/live-events';
import { isHandBack, STATUS_BADGE } from '@domain/order-status';
import type { ToastInput } from '../../components/ui/use-toast';
import { formatDateTime } from '../../lib/format';
import { CURRENT_USER_KEY } from '../../lib/use-auth';
import { AVAILABLE_ORDERS_KEY } from '../deliveries/api/delivery-keys';
import {
  ORDER_MESSAGES_KEY,
  PRODUCT_MESSAGES_KEY,
  PRODUCT_THREADS_KEY,
  UNREAD_MESSAGES_KEY,
  orderMessagesKey,
} from '../messages/api/message-keys';
import { isConversationShown, orderConversation, productConversation } from '../messages/open-conversations';
import { ORDERS_KEY } from '../orders/api/order-keys';
import { isHandedBackHere } from '../orders/handed-back-orders';
import { ORDER_REVIEWS_KEY } from '../reviews/api/review-keys';
import { EARNINGS_KEY } from '../seller/api/earnings-keys';

/** The prefixes of everything an event may change: read again after a reconnect. */
export const LIVE_QUERY_PREFIXES = [
  ORDERS_KEY,
  AVAILABLE_ORDERS_KEY,
  ORDER_MESSAGES_KEY,
  PRODUCT_MESSAGES_KEY,
  PRODUCT_THREADS_KEY,
  UNREAD_MESSAGES_KEY,
  ORDER_REVIEWS_KEY,
  EARNINGS_KEY,
] as const;

/**
 * What one live event does in the browser (docs/rules/live-updates.md, Live updates): the queries it
 * affects are read again at once, and a new message or an order change by someone else is
 * announced in a toast, unless the conversation is already on screen, as is a new expected arrival
 * to the order's buyer. Answers the toast, if any.
 */
export function applyLiveEvent(
  event: LiveEvent,
  queryClient: Pick<QueryClient, 'invalidateQueries'>,
  viewerId: string,
): ToastInput | undefined {
  const invalidate = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
  switch (event.type) {
    case 'order.changed': {
      invalidate(ORDERS_KEY);
      invalidate(AVAILABLE_ORDERS_KEY);
      invalidate(ORDER_REVIEWS_KEY);
      invalidate(EARNINGS_KEY);
      if (event.actorId === viewerId) return undefined;
      if (event.from === null) return { title: 'New order', description: `${event.orderNumber} was placed.` };
      // Back to Pending without its driver (docs/rules/deliveries.md, Deliveries): not a new order.
      if (isHandBack({ fromStatus: event.from, toStatus: event.status }))
        return {
          title: 'Order updated',
          description: `${event.orderNumber}: its driver handed it back. It is offered to drivers again.`,
        };
      return {
        title: 'Order updated',
        description: `${event.orderNumber} is now ${STATUS_BADGE[event.status]}.`,
      };
    }
    case 'order.arrival': {
      invalidate(ORDERS_KEY);
      if (event.buyerId !== viewerId) return undefined;
      const at = formatDateTime(event.estimatedDeliveryTime);
      return at === null
        ? undefined
        : { title: 'Expected arrival', description: `${event.orderNumber} is expected ${at}.` };
    }
    case 'order.message': {
      invalidate(orderMessagesKey(event.orderId));
      invalidate(UNREAD_MESSAGES_KEY);
      if (event.senderId === viewerId || isConversationShown(orderConversation(event.orderId)))
        return undefined;
      return {
        title: 'New message',
        description: `${event.senderName} wrote about order ${event.orderNumber}.`,
      };
    }
    case 'product.message': {
      invalidate([...PRODUCT_MESSAGES_KEY, event.productId]);
      invalidate(PRODUCT_THREADS_KEY);
      invalidate(UNREAD_MESSAGES_KEY);
      if (
        event.senderId === viewerId ||
        isConversationShown(productConversation(event.productId, event.buyerId))
      )
        return undefined;
      return { title: 'New message', description: `${event.senderName} wrote about ${event.productName}.` };
    }
    case 'account.changed': {
      // A role given or taken away, or a suspension (docs/rules/accounts.md, Moderation): the header,
      // the role gates and the pages follow the account as read again; a suspended one is signed out.
      invalidate(CURRENT_USER_KEY);
      return { title: 'Your account changed', description: 'An administrator changed your account.' };
    }
    case 'offers.changed': {
      invalidate(AVAILABLE_ORDERS_KEY);
      // The driver who handed an order back is not offered it as news.
      return event.isNew && !isHandedBackHere(event.orderId)
        ? { title: 'New delivery request', description: `${event.orderNumber} is available to accept.` }
        : undefined;
    }
  }
}

/**
 * Where a toast about an order opens it (its View): the page on which the user is its party, with
 * the order selected (`?order=`), as the order's push notification does (docs/rules/live-updates.md, Live
 * updates). None for news about something else, or for an event that does not name its parties.
 */
export function orderLinkOf(event: LiveEvent, viewerId: string): string | undefined {
  const selected = (page: string, orderId: string) => `${page}?order=${encodeURIComponent(orderId)}`;
  switch (event.type) {
    case 'order.changed':
      if (event.buyerId === undefined || event.sellerId === undefined) return undefined;
      if (event.buyerId === viewerId) return selected('/buyer/orders', event.orderId);
      if (event.sellerId === viewerId) return selected('/seller/dashboard', event.orderId);
      return selected('/driver/dashboard', event.orderId);
    case 'order.arrival':
      return event.buyerId === viewerId ? selected('/buyer/orders', event.orderId) : undefined;
    default:
      return undefined;
  }
}
