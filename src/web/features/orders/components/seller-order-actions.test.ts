import { describe, expect, it } from 'vitest';
import type { OrderStatus } from '@domain/order-status';
import { SELLER_STEP_LABEL, sellerStepOf } from './seller-order-actions';

const pickup = (status: OrderStatus) => ({ status, isPickup: true, sellerDelivery: false });
const selfDelivered = (status: OrderStatus) => ({ status, isPickup: false, sellerDelivery: true });
const byDriver = (status: OrderStatus) => ({ status, isPickup: false, sellerDelivery: false });

describe("the seller's next step (docs/rules/catalog-and-orders.md, Order lifecycle)", () => {
  it('makes a pickup order ready, then picked up, then nothing', () => {
    expect(sellerStepOf(pickup('pending'))).toBe('ready_for_pickup');
    expect(sellerStepOf(pickup('ready_for_pickup'))).toBe('completed');
    expect(sellerStepOf(pickup('completed'))).toBeNull();
    expect(sellerStepOf(pickup('cancelled'))).toBeNull();
    expect(SELLER_STEP_LABEL.ready_for_pickup).toBe('Mark Ready for Pickup');
    expect(SELLER_STEP_LABEL.completed).toBe('Mark Picked Up');
  });

  it('starts and finishes a delivery the seller makes', () => {
    expect(sellerStepOf(selfDelivered('pending'))).toBe('in-transit');
    expect(sellerStepOf(selfDelivered('in-transit'))).toBe('delivered');
    expect(sellerStepOf(selfDelivered('delivered'))).toBeNull();
    expect(SELLER_STEP_LABEL['in-transit']).toBe('Start Delivery');
    expect(SELLER_STEP_LABEL.delivered).toBe('Mark Delivered');
  });

  it("offers nothing on a driver's delivery", () => {
    for (const status of ['pending', 'assigned', 'in-transit'] as const)
      expect(sellerStepOf(byDriver(status))).toBeNull();
  });
});
