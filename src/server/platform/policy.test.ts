import { describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../domain/order-status';
import {
  canCancelOrder,
  canChangeOrderStatus,
  canChangeOwnRole,
  canClaimUpload,
  canHavePayoutAccount,
  canManageAddress,
  canManageAvailability,
  canManagePayoutAccount,
  canManageProduct,
  canOfferPickups,
  canOpenProductThread,
  canPostToMessageThread,
  canReadUpload,
  canRefundFinishedOrder,
  canReceiveLiveEvent,
  canSaveDriverImages,
  canSeeOrderPrices,
  canSetRoleOf,
  canViewMessageThread,
  canViewOrder,
  canViewPayment,
  hasRole,
  isAdmin,
  partiesOf,
  type OrderForChange,
} from './policy';

// The access policy with plain objects (docs/rules/accounts.md, Roles and permissions; docs/rules/selling.md,
// Uploads and who sees a file).
const buyer = { id: 'buyer', roles: ['buyer'] };
const seller = { id: 'seller', roles: ['buyer', 'seller'] };
const driver = { id: 'driver', roles: ['buyer', 'driver'] };
const otherDriver = { id: 'other-driver', roles: ['buyer', 'driver'] };
const stranger = { id: 'stranger', roles: ['buyer', 'seller', 'driver'] };
const admin = { id: 'admin', roles: ['buyer', 'admin'] };

const order = { buyerId: 'buyer', sellerId: 'seller', driverId: 'driver' };
const unassigned = { ...order, driverId: null };
const driverOrder = (status: OrderStatus): OrderForChange => ({
  ...order,
  isPickup: false,
  sellerDelivery: false,
  status,
});

describe('roles', () => {
  it('looks at the granted roles, not the current one', () => {
    expect(isAdmin(admin)).toBe(true);
    expect(isAdmin({ roles: ['buyer'] })).toBe(false);
    expect(hasRole(seller, 'seller')).toBe(true);
    expect(hasRole(buyer, 'seller')).toBe(false);
  });

  it('switches only the own role; an admin sets only other users’ roles', () => {
    expect(canChangeOwnRole(buyer, 'buyer')).toBe(true);
    expect(canChangeOwnRole(buyer, 'seller')).toBe(false);
    expect(canChangeOwnRole(admin, 'buyer')).toBe(false);
    expect(canSetRoleOf(admin, 'buyer')).toBe(true);
    expect(canSetRoleOf(admin, 'admin')).toBe(false);
    expect(canSetRoleOf(seller, 'buyer')).toBe(false);
  });
});

describe('orders', () => {
  it('names every capacity of the actor', () => {
    expect(partiesOf(buyer, order)).toEqual(['buyer']);
    expect(partiesOf(seller, order)).toEqual(['seller']);
    expect(partiesOf(driver, order)).toEqual(['driver']);
    expect(partiesOf(admin, order)).toEqual(['admin']);
    expect(partiesOf(stranger, order)).toEqual([]);
    expect(partiesOf({ id: 'buyer', roles: ['buyer', 'admin'] }, order)).toEqual(['buyer', 'admin']);
  });

  it('shows an order to its buyer, seller, assigned driver and admins only', () => {
    for (const party of [buyer, seller, driver, admin]) expect(canViewOrder(party, order)).toBe(true);
    expect(canViewOrder(stranger, order)).toBe(false);
    expect(canViewOrder(otherDriver, order)).toBe(false);
    // A driver who is not assigned sees nothing; nor does any driver of an unassigned order.
    expect(canViewOrder(driver, unassigned)).toBe(false);
    expect(canViewOrder(admin, unassigned)).toBe(true);
  });

  it('hides prices from a viewer who is only the driver', () => {
    expect(canSeeOrderPrices(buyer, order)).toBe(true);
    expect(canSeeOrderPrices(seller, order)).toBe(true);
    expect(canSeeOrderPrices(admin, order)).toBe(true);
    expect(canSeeOrderPrices(driver, order)).toBe(false);
    expect(canSeeOrderPrices(stranger, order)).toBe(false);
    // A driver who is also an admin sees prices.
    expect(canSeeOrderPrices({ id: 'driver', roles: ['buyer', 'driver', 'admin'] }, order)).toBe(true);
  });

  it('lets the buyer and the seller cancel while pending, an admin until finished, never a driver', () => {
    const pending = driverOrder('pending');
    expect(canCancelOrder(buyer, pending)).toBe(true);
    expect(canCancelOrder(seller, pending)).toBe(true);
    expect(canCancelOrder(admin, pending)).toBe(true);
    expect(canCancelOrder(driver, pending)).toBe(false);
    expect(canCancelOrder(stranger, pending)).toBe(false);

    const assigned = driverOrder('assigned');
    expect(canCancelOrder(buyer, assigned)).toBe(false);
    expect(canCancelOrder(seller, assigned)).toBe(false);
    expect(canCancelOrder(admin, assigned)).toBe(true);
    for (const finished of ['delivered', 'completed', 'cancelled'] as const)
      expect(canCancelOrder(admin, driverOrder(finished))).toBe(false);
  });

  it('lets only an admin refund a finished order (our addition)', () => {
    // A cancelled order whose own refund failed for good is refunded here too.
    for (const finished of ['delivered', 'completed', 'cancelled'] as const) {
      expect(canRefundFinishedOrder(admin, driverOrder(finished))).toBe(true);
      for (const other of [buyer, seller, driver, stranger])
        expect(canRefundFinishedOrder(other, driverOrder(finished))).toBe(false);
    }
    for (const open of ['pending', 'assigned', 'in-transit'] as const)
      expect(canRefundFinishedOrder(admin, driverOrder(open))).toBe(false);
  });

  it('lets each party make only its own moves', () => {
    expect(canChangeOrderStatus(driver, driverOrder('pending'), 'assigned')).toBe(true);
    expect(canChangeOrderStatus(otherDriver, driverOrder('pending'), 'assigned')).toBe(false);
    expect(canChangeOrderStatus(seller, driverOrder('pending'), 'assigned')).toBe(false);
    const pickup = { ...driverOrder('pending'), isPickup: true };
    expect(canChangeOrderStatus(seller, pickup, 'ready_for_pickup')).toBe(true);
    expect(canChangeOrderStatus(buyer, pickup, 'ready_for_pickup')).toBe(false);
  });
});

describe('owned rows', () => {
  it('shows a payment to the buyer who made it only, not to admins', () => {
    expect(canViewPayment(buyer, { buyerId: 'buyer' })).toBe(true);
    expect(canViewPayment(stranger, { buyerId: 'buyer' })).toBe(false);
    expect(canViewPayment(admin, { buyerId: 'buyer' })).toBe(false);
  });

  it('lets the owner seller and admins manage a product', () => {
    expect(canManageProduct(seller, { sellerId: 'seller' })).toBe(true);
    expect(canManageProduct(admin, { sellerId: 'seller' })).toBe(true);
    expect(canManageProduct(stranger, { sellerId: 'seller' })).toBe(false);
    expect(canManageProduct(buyer, { sellerId: 'seller' })).toBe(false);
  });

  it('lets only the owner manage an address or a schedule, admins included', () => {
    expect(canManageAddress(buyer, { userId: 'buyer' })).toBe(true);
    expect(canManageAddress(stranger, { userId: 'buyer' })).toBe(false);
    expect(canManageAddress(admin, { userId: 'buyer' })).toBe(false);
    expect(canManageAvailability(seller, { userId: 'seller' })).toBe(true);
    expect(canManageAvailability(stranger, { userId: 'seller' })).toBe(false);
    expect(canManageAvailability(admin, { userId: 'seller' })).toBe(false);
  });

  it('publishes pickup slots of sellers and admins only', () => {
    expect(canOfferPickups(seller)).toBe(true);
    expect(canOfferPickups(admin)).toBe(true);
    expect(canOfferPickups(driver)).toBe(false);
    expect(canOfferPickups(buyer)).toBe(false);
  });
});

describe('uploads', () => {
  const upload = (visibility: string) => ({ visibility, ownerId: 'driver' });

  it('lets only drivers save driver images and only the uploader claim an upload', () => {
    expect(canSaveDriverImages(driver)).toBe(true);
    expect(canSaveDriverImages(seller)).toBe(false);
    expect(canSaveDriverImages(admin)).toBe(false);
    expect(canClaimUpload(driver, upload('pending'))).toBe(true);
    expect(canClaimUpload(admin, upload('pending'))).toBe(false);
  });

  it('shows product images and profile pictures (public) to anyone, visitors included', () => {
    for (const reader of [null, buyer, stranger, admin])
      expect(canReadUpload(reader, upload('public'), undefined)).toBe(true);
  });

  it('shows vehicle, licence and trailer images (owner) to the uploader and admins only', () => {
    expect(canReadUpload(driver, upload('owner'), undefined)).toBe(true);
    expect(canReadUpload(admin, upload('owner'), undefined)).toBe(true);
    for (const reader of [null, buyer, seller, otherDriver])
      expect(canReadUpload(reader, upload('owner'), undefined)).toBe(false);
  });

  it("shows a delivery photo (order) to the order's parties and admins only", () => {
    const photo = upload('order');
    for (const reader of [buyer, seller, driver, admin])
      expect(canReadUpload(reader, photo, order)).toBe(true);
    for (const reader of [null, stranger, otherDriver])
      expect(canReadUpload(reader, photo, order)).toBe(false);
    // The order is gone: the uploader and admins still read it.
    expect(canReadUpload(buyer, photo, undefined)).toBe(false);
    expect(canReadUpload(driver, photo, undefined)).toBe(true);
    expect(canReadUpload(admin, photo, undefined)).toBe(true);
  });

  it('shows an upload not claimed yet (pending) to the uploader only', () => {
    expect(canReadUpload(driver, upload('pending'), undefined)).toBe(true);
    for (const reader of [null, buyer, admin])
      expect(canReadUpload(reader, upload('pending'), undefined)).toBe(false);
  });
});

describe('message threads', () => {
  it("keeps a product thread between its buyer and the product's seller", () => {
    const thread = { kind: 'product' as const, buyerId: 'buyer', sellerId: 'seller' };
    expect(canViewMessageThread(buyer, thread)).toBe(true);
    expect(canPostToMessageThread(seller, thread)).toBe(true);
    expect(canViewMessageThread(stranger, thread)).toBe(false);
    expect(canPostToMessageThread(admin, thread)).toBe(false);
  });

  it("opens an order thread to the order's parties, the assigned driver included, and admins", () => {
    const thread = { kind: 'order' as const, ...order };
    for (const party of [buyer, seller, driver, admin]) {
      expect(canViewMessageThread(party, thread)).toBe(true);
      expect(canPostToMessageThread(party, thread)).toBe(true);
    }
    expect(canViewMessageThread(otherDriver, thread)).toBe(false);
    expect(canPostToMessageThread(stranger, thread)).toBe(false);
  });

  it('has no product thread of a seller with themself, and lets only buyers open one', () => {
    const ownThread = { kind: 'product' as const, buyerId: 'seller', sellerId: 'seller' };
    expect(canViewMessageThread(seller, ownThread)).toBe(false);
    expect(canOpenProductThread(buyer, { sellerId: 'seller' })).toBe(true);
    expect(canOpenProductThread(seller, { sellerId: 'seller' })).toBe(false);
  });
});

describe('live updates (docs/rules/live-updates.md, Live updates)', () => {
  const documents = { vehicleImageUrl: 'v', licenseImageUrl: 'l', trailerImageUrl: null, isVerified: true };
  const none = { vehicleImageUrl: null, licenseImageUrl: null, trailerImageUrl: null, isVerified: false };
  const named = { audience: ['buyer', 'seller'], forDrivers: false, trailerOnly: false };
  const offer = { audience: [], forDrivers: true, trailerOnly: false };

  it('gives an event to the users it names and nobody else', () => {
    expect(canReceiveLiveEvent({ ...buyer, ...none }, named)).toBe(true);
    expect(canReceiveLiveEvent({ ...seller, ...none }, named)).toBe(true);
    for (const other of [stranger, admin, driver])
      expect(canReceiveLiveEvent({ ...other, ...documents }, named)).toBe(false);
  });

  it('gives an offer to verified drivers and admins, a trailer offer only with a trailer image', () => {
    expect(canReceiveLiveEvent({ ...driver, ...documents }, offer)).toBe(true);
    expect(canReceiveLiveEvent({ ...admin, ...none }, offer)).toBe(true);
    expect(canReceiveLiveEvent({ ...driver, ...none }, offer)).toBe(false);
    expect(canReceiveLiveEvent({ ...driver, ...documents, isVerified: false }, offer)).toBe(false);
    // Documents without the driver role (a former driver) are not enough.
    expect(canReceiveLiveEvent({ ...buyer, ...documents }, offer)).toBe(false);
    const trailerOffer = { ...offer, trailerOnly: true };
    expect(canReceiveLiveEvent({ ...driver, ...documents }, trailerOffer)).toBe(false);
    expect(canReceiveLiveEvent({ ...driver, ...documents, trailerImageUrl: 't' }, trailerOffer)).toBe(true);
  });
});

describe('payout accounts (docs/rules/money.md, Payout accounts)', () => {
  it('lets sellers and drivers have one, not buyers or admins by that role alone', () => {
    expect(canHavePayoutAccount(seller)).toBe(true);
    expect(canHavePayoutAccount(driver)).toBe(true);
    expect(canHavePayoutAccount(buyer)).toBe(false);
    expect(canHavePayoutAccount(admin)).toBe(false);
  });

  it("keeps an account's onboarding and dashboard to its own user", () => {
    expect(canManagePayoutAccount(seller, { userId: 'seller' })).toBe(true);
    expect(canManagePayoutAccount(driver, { userId: 'seller' })).toBe(false);
    expect(canManagePayoutAccount(admin, { userId: 'seller' })).toBe(false);
    // A former seller (the role taken away) no longer manages the account.
    expect(canManagePayoutAccount({ id: 'seller', roles: ['buyer'] }, { userId: 'seller' })).toBe(false);
  });
});
