import { describe, expect, it, vi } from 'vitest';
import { applyLiveEvent, orderLinkOf } from './apply-live-event';
import { orderConversation, showConversation } from '../messages/open-conversations';
import { rememberHandedBack } from '../orders/handed-back-orders';

// What a live event does in the browser (docs/rules/live-updates.md, Live updates).
const ME = 'me';

function apply(event: Parameters<typeof applyLiveEvent>[0]) {
  const invalidateQueries = vi.fn(async () => {});
  const notice = applyLiveEvent(event, { invalidateQueries }, ME);
  const keys = invalidateQueries.mock.calls.map(
    (call) => (call as unknown as [{ queryKey: unknown[] }])[0].queryKey,
  );
  return { notice, keys };
}

describe('applyLiveEvent', () => {
  const orderMessage = {
    type: 'order.message' as const,
    orderId: 'o1',
    orderNumber: 'ORD-7F3K9Q',
    senderId: 'seller',
    senderName: 'Sol Seller',
  };

  it("reads an order's conversation and the unread count again, and announces someone else's message", () => {
    const { notice, keys } = apply(orderMessage);
    expect(keys).toEqual([['/api/messages/order', 'o1'], ['/api/messages/unread']]);
    expect(notice).toEqual({ title: 'New message', description: 'Sol Seller wrote about order ORD-7F3K9Q.' });
    expect(apply({ ...orderMessage, senderId: ME }).notice).toBeUndefined();
  });

  it('does not announce a message in a conversation on screen', () => {
    const hide = showConversation(orderConversation('o1'));
    expect(apply(orderMessage).notice).toBeUndefined();
    hide();
    expect(apply(orderMessage).notice).toBeDefined();
  });

  it("reads the orders again on an order's change and names its new status", () => {
    const { notice, keys } = apply({
      type: 'order.changed',
      orderId: 'o1',
      orderNumber: 'ORD-7F3K9Q',
      status: 'in-transit',
      from: 'assigned',
      actorId: 'driver',
    });
    expect(keys).toContainEqual(['/api/orders']);
    expect(notice).toEqual({ title: 'Order updated', description: 'ORD-7F3K9Q is now In Transit.' });
  });

  it("links an order's toast to the order on the page where the viewer is its party", () => {
    const change = {
      type: 'order.changed' as const,
      orderId: 'o 1',
      orderNumber: 'ORD-7F3K9Q',
      status: 'in-transit' as const,
      from: 'assigned' as const,
      actorId: 'driver',
      buyerId: 'buyer',
      sellerId: 'seller',
    };
    expect(orderLinkOf(change, 'buyer')).toBe('/buyer/orders?order=o%201');
    expect(orderLinkOf(change, 'seller')).toBe('/seller/dashboard?order=o%201');
    expect(orderLinkOf(change, 'driver')).toBe('/driver/dashboard?order=o%201');
    // An event stored before it named its parties has no link.
    const { buyerId: _buyer, sellerId: _seller, ...unnamed } = change;
    expect(orderLinkOf(unnamed, 'buyer')).toBeUndefined();
    const arrival = {
      type: 'order.arrival' as const,
      orderId: 'o1',
      orderNumber: 'ORD-7F3K9Q',
      buyerId: 'buyer',
      estimatedDeliveryTime: '2026-12-04T12:00:00.000Z',
    };
    expect(orderLinkOf(arrival, 'buyer')).toBe('/buyer/orders?order=o1');
    expect(orderLinkOf(arrival, 'seller')).toBeUndefined();
    expect(
      orderLinkOf(
        { type: 'offers.changed', orderId: 'o1', orderNumber: 'ORD-7F3K9Q', isNew: true },
        'driver',
      ),
    ).toBeUndefined();
  });

  it('tells the buyer and the seller of a hand back as a change, not as a new order', () => {
    const change = {
      type: 'order.changed' as const,
      orderId: 'o1',
      orderNumber: 'ORD-7F3K9Q',
      status: 'pending' as const,
      actorId: 'driver',
    };
    expect(apply({ ...change, from: 'assigned' }).notice).toEqual({
      title: 'Order updated',
      description: 'ORD-7F3K9Q: its driver handed it back. It is offered to drivers again.',
    });
    expect(apply({ ...change, from: null }).notice).toEqual({
      title: 'New order',
      description: 'ORD-7F3K9Q was placed.',
    });
  });

  it('refreshes the product conversation, the threads and the count on a product message', () => {
    const { keys, notice } = apply({
      type: 'product.message',
      productId: 'p1',
      productName: 'Maple Desk',
      buyerId: 'buyer',
      sellerId: ME,
      senderId: 'buyer',
      senderName: 'Bea Buyer',
    });
    expect(keys).toEqual([
      ['/api/product-messages', 'p1'],
      ['/api/product-messages/threads'],
      ['/api/messages/unread'],
    ]);
    expect(notice?.description).toBe('Bea Buyer wrote about Maple Desk.');
  });

  it("reads the orders again on a new expected arrival and tells the order's buyer only", () => {
    const arrival = {
      type: 'order.arrival' as const,
      orderId: 'o1',
      orderNumber: 'ORD-7F3K9Q',
      buyerId: ME,
      estimatedDeliveryTime: '2026-11-23T16:00:00.000Z',
    };
    const { notice, keys } = apply(arrival);
    expect(keys).toEqual([['/api/orders']]);
    // The marketplace's default time zone (docs/rules/running.md, Dates and times).
    expect(notice).toEqual({
      title: 'Expected arrival',
      description: 'ORD-7F3K9Q is expected Nov 23, 2026 · 10:00 AM CST.',
    });
    // The seller and the driver who set it: their screens read it again, without a toast.
    const forOthers = apply({ ...arrival, buyerId: 'buyer' });
    expect(forOthers.keys).toEqual([['/api/orders']]);
    expect(forOthers.notice).toBeUndefined();
  });

  it('tells a driver of a new available order only', () => {
    const offer = {
      type: 'offers.changed' as const,
      orderId: 'o2',
      orderNumber: 'ORD-AAAAAA',
      isNew: true,
    };
    expect(apply(offer).keys).toEqual([['/api/orders/available']]);
    expect(apply(offer).notice?.title).toBe('New delivery request');
    expect(apply({ ...offer, isNew: false }).notice).toBeUndefined();
    // The driver who handed it back here reads the list again but is not told of it as news.
    rememberHandedBack('o2');
    expect(apply(offer).keys).toEqual([['/api/orders/available']]);
    expect(apply(offer).notice).toBeUndefined();
  });
});
