import crypto from 'node:crypto';
import { fulfilmentOf } from '../../../domain/order-status';

/**
 * The 4 digits the buyer reads to the driver at drop-off (docs/rules/deliveries.md, Deliveries), made
 * when an order a driver delivers is placed; other orders have none.
 */
export function newDeliveryCode(order: { isPickup: boolean; sellerDelivery: boolean }): string | null {
  if (fulfilmentOf(order) !== 'driver') return null;
  return String(crypto.randomInt(0, 10_000)).padStart(4, '0');
}

/** Compared in constant time, so the answer's timing tells nothing about the digits. */
export function deliveryCodeMatches(stored: string | null, given: string): boolean {
  if (stored === null) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
