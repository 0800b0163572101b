import type { Db } from '../../db/client';
import type { Config } from '../../config';
import type { OutboxItem } from '../../platform/outbox';
import type { StoredLiveEvent } from '../../platform/live-events';
import { canViewOrder } from '../../platform/policy';
import { formatUsd, parseCents } from '../../../domain/money';
import { fulfilmentLabel, fulfilmentOf, type OrderStatus } from '../../../domain/order-status';
import type { LiveEventReactor } from './dispatch-live-events';
import { renderMail, type MailContent } from './mail-layout';
import { findOrdersForMail, listOrderItemsForMail, type OrderForMail } from './mail.queries';
import { listDriversToTellOfOffer } from './offer-drivers';

/**
 * The mail that orders cause (docs/decisions/0019-reaching-people.md, Mail): the buyer's receipt when
 * an order is placed (its items and amounts read back from the stored order) and a mail at each
 * later status; the seller's "new order"; and to drivers who asked for it, a new offer near them. Each
 * recipient is checked against the access policy with the order as it is now: nobody gets mail about
 * an order they may not see, and drivers never see a price.
 */
export function mailReactor(config: Pick<Config, 'siteUrl'>): LiveEventReactor {
  return async (tx, events) => {
    const reads = orderReads(
      tx,
      events.flatMap(({ data }) =>
        data.type === 'order.changed' || (data.type === 'offers.changed' && data.isNew) ? [data.orderId] : [],
      ),
    );
    const items: OutboxItem[] = [];
    for (const event of events) {
      const data = event.data;
      if (data.type === 'order.changed') items.push(...(await orderChangeMail(reads, config.siteUrl, data)));
      if (data.type === 'offers.changed' && data.isNew)
        items.push(...(await offerMail(reads, config.siteUrl, event, data.orderId)));
    }
    return items;
  };
}

/**
 * A batch's reads of its orders, two statements for all of them, made on first use: a new
 * order's receipt and its offer mail are two events of the same batch, about the same order as it
 * is now.
 */
interface OrderReads {
  tx: Db;
  order: (orderId: string) => Promise<OrderForMail | undefined>;
  items: (orderId: string) => Promise<{ name: string; quantity: number; price: string }[]>;
}

function orderReads(tx: Db, orderIds: readonly string[]): OrderReads {
  const ids = [...new Set(orderIds)];
  let orders: ReturnType<typeof findOrdersForMail> | undefined;
  let items: ReturnType<typeof listOrderItemsForMail> | undefined;
  return {
    tx,
    order: async (orderId) => (await (orders ??= findOrdersForMail(tx, ids))).get(orderId),
    items: async (orderId) => (await (items ??= listOrderItemsForMail(tx, ids))).get(orderId) ?? [],
  };
}

function mailItem(kind: string, userId: string, content: MailContent): OutboxItem {
  return { channel: 'mail', kind, userId, payload: renderMail(content) };
}

const usd = (amount: string) => formatUsd(parseCents(amount));

function addressLine(
  address: {
    addressLine1: string | null;
    city: string | null;
    state: string | null;
    zipCode: string | null;
  } | null,
) {
  if (!address || address.city === null) return null;
  return [address.addressLine1, `${address.city}, ${address.state ?? ''} ${address.zipCode ?? ''}`.trim()]
    .filter(Boolean)
    .join(', ');
}

async function orderChangeMail(
  reads: OrderReads,
  siteUrl: string,
  event: { orderId: string; status: OrderStatus; from: OrderStatus | null },
): Promise<OutboxItem[]> {
  const found = await reads.order(event.orderId);
  if (!found) return [];
  const { order } = found;
  const buyerMay = canViewOrder(found.buyer, order);
  const sellerMay = canViewOrder(found.seller, order);
  const buyerLink = { label: 'View your order', url: `${siteUrl}/buyer/orders?order=${order.id}` };
  // Only a placed order sends the receipt and the seller's "new order"; a driver handing it back
  // (assigned → pending) sends no mail: the buyer's and seller's screens and push tell them.
  if (event.from !== null) {
    const status = statusMail(found, order.status as OrderStatus);
    // The mail says where the order stands now; a step already passed again is not told twice.
    if (!buyerMay || !status || order.status !== event.status) return [];
    return [
      mailItem(`order_${order.status}`, found.buyer.id, {
        to: found.buyer.email,
        greetingName: found.buyer.firstName,
        subject: status.subject,
        paragraphs: status.paragraphs,
        action: buyerLink,
      }),
    ];
  }
  const lines = await reads.items(order.id);
  const itemRows = lines.map((line) => ({
    label: `${line.name} × ${line.quantity}`,
    value: formatUsd(parseCents(line.price) * line.quantity),
  }));
  const how = fulfilmentLabel(order);
  const mail: OutboxItem[] = [];
  if (buyerMay)
    mail.push(
      mailItem('order_receipt', found.buyer.id, {
        to: found.buyer.email,
        greetingName: found.buyer.firstName,
        subject: `Your receipt for order ${order.orderNumber}`,
        paragraphs: [
          `Thank you for your order. Your payment was received and the seller has been told.`,
          fulfilmentOf(order) === 'pickup'
            ? `${how}: ${order.deliveryAddress}. We will email you when it is ready.`
            : `${how} to ${order.deliveryAddress}. We will email you as it moves.`,
        ],
        rows: [
          ...itemRows,
          { label: 'Subtotal', value: usd(order.productSubtotal) },
          { label: 'Delivery fee', value: usd(order.deliveryFee) },
          { label: 'Total', value: usd(order.total) },
        ],
        action: buyerLink,
      }),
    );
  if (sellerMay)
    mail.push(
      mailItem('order_new_for_seller', found.seller.id, {
        to: found.seller.email,
        greetingName: found.seller.firstName,
        subject: `New order ${order.orderNumber}`,
        paragraphs: [
          `${found.buyer.firstName ?? 'A buyer'} placed an order with you (${how.toLowerCase()}).`,
          sellerNextStep(order),
        ],
        rows: [
          ...itemRows,
          { label: 'Subtotal', value: usd(order.productSubtotal) },
          { label: 'Your earnings', value: usd(order.sellerEarnings) },
        ],
        action: { label: 'Open the order', url: `${siteUrl}/seller/dashboard?order=${order.id}` },
      }),
    );
  return mail;
}

function sellerNextStep(order: OrderForMail['order']): string {
  const path = fulfilmentOf(order);
  if (path === 'pickup') return 'Get it ready, then mark it Ready for Pickup.';
  if (path === 'seller') return 'You deliver this order: press Start Delivery when you leave.';
  return 'It is offered to drivers now; you will see who takes it on your dashboard.';
}

function statusMail(
  found: OrderForMail,
  status: OrderStatus,
): { subject: string; paragraphs: string[] } | undefined {
  const { order } = found;
  const number = order.orderNumber;
  switch (status) {
    case 'pending':
      return undefined;
    case 'assigned':
      return {
        subject: `A driver accepted order ${number}`,
        paragraphs: ['A driver accepted your order and will pick it up from the seller.'],
      };
    case 'in-transit':
      return {
        subject: `Order ${number} is out for delivery`,
        paragraphs: [`Your order is on its way to ${order.deliveryAddress}.`],
      };
    case 'delivered':
      return {
        subject: `Order ${number} was delivered`,
        paragraphs: ['Your order was delivered. We hope you enjoy it; you can review it from your orders.'],
      };
    case 'ready_for_pickup':
      return {
        subject: `Order ${number} is ready for pickup`,
        paragraphs: [
          `Your order is ready. Pick it up at ${addressLine(found.pickup) ?? order.deliveryAddress}.`,
        ],
      };
    case 'completed':
      return {
        subject: `Order ${number} was picked up`,
        paragraphs: ['The seller marked your order as picked up. Thank you for buying locally.'],
      };
    case 'cancelled':
      return {
        subject: `Order ${number} was cancelled`,
        paragraphs: [
          `Your order was cancelled. Its total, ${usd(order.total)}, is refunded to the card you paid with; your bank may take a few days to show it.`,
        ],
      };
  }
}

async function offerMail(
  reads: OrderReads,
  siteUrl: string,
  event: StoredLiveEvent,
  orderId: string,
): Promise<OutboxItem[]> {
  const found = await reads.order(orderId);
  if (!found) return [];
  const { order } = found;
  const drivers = await listDriversToTellOfOffer(reads.tx, event, order);
  const units = (await reads.items(order.id)).reduce((sum, line) => sum + line.quantity, 0);
  const deliveryArea = found.deliveryArea;
  const area = deliveryArea?.city
    ? `${deliveryArea.city}, ${deliveryArea.state ?? ''} ${deliveryArea.zipCode ?? ''}`.trim()
    : 'not given';
  return drivers
    .filter((driver) => driver.wantsOfferMail)
    .map((driver) =>
      mailItem('delivery_offer', driver.id, {
        to: driver.email,
        greetingName: driver.firstName,
        subject: `New delivery offer near you: order ${order.orderNumber}`,
        paragraphs: [
          `An order is waiting for a driver, ${Math.round((driver.distance ?? 0) * 10) / 10} miles from your primary address. The first driver to accept it gets it.`,
          'You get this mail because you turned on offer emails on your profile.',
        ],
        // What an offer shows (docs/rules/deliveries.md, Deliveries), never a price.
        rows: [
          { label: 'Pickup', value: addressLine(found.pickup) ?? 'not given' },
          { label: 'Delivery area', value: area },
          { label: 'Units', value: String(units) },
          ...(order.requiresTrailer ? [{ label: 'Trailer', value: 'required' }] : []),
        ],
        action: { label: 'See available orders', url: `${siteUrl}/driver/dashboard` },
      }),
    );
}
