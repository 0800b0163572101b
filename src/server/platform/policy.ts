import {
  canBeHandedBack,
  canTransition,
  fulfilmentOf,
  isClosed,
  orderStatusSchema,
  type OrderStatus,
  type Party,
} from '../../domain/order-status';
import { canCarryTrailerOrders, driverVerificationOf, type VerificationStep } from '../../domain/deliveries';
import type { Role } from '../../domain/roles';

/**
 * The access policy (docs/rules/accounts.md, Roles and permissions; decision 0011): the one place
 * that decides who may see or change an order, a payment, an upload, a product, an address, a
 * schedule or a message thread. Every service asks it; nothing else compares ids or roles. Pure: each
 * function takes the caller and the row (or the fields it needs) and answers a boolean; the service
 * turns a "no" into a 404 for a non-party, so the server never confirms that something exists.
 *
 * Permissions look at the granted roles, never the current one: switching the header to "buyer"
 * takes nothing away (decision 0004).
 */

/** Who asks: the signed-in user's id and granted roles (an `Actor` or a user row). */
export interface PolicyActor {
  id: string;
  roles: readonly string[];
}

/** The people linked to an order. */
export interface OrderParties {
  buyerId: string;
  sellerId: string;
  driverId: string | null;
}

export function hasRole(actor: Pick<PolicyActor, 'roles'>, role: Role): boolean {
  return actor.roles.includes(role);
}

/** Admins are admins by their granted roles, whatever the header shows (decision 0004). */
export function isAdmin(actor: Pick<PolicyActor, 'roles'>): boolean {
  return hasRole(actor, 'admin');
}

// Users and roles

/** The header switcher works on the caller's own account only. */
export function canChangeOwnRole(actor: PolicyActor, targetUserId: string): boolean {
  return actor.id === targetUserId;
}

/** An admin sets another user's role, never their own row. */
export function canSetRoleOf(actor: PolicyActor, targetUserId: string): boolean {
  return isAdmin(actor) && actor.id !== targetUserId;
}

/**
 * An admin approves, rejects or revokes another user's driver verification, never their own
 * (docs/rules/known-differences.md, Admin).
 */
export function canVerifyDriver(actor: PolicyActor, driverId: string): boolean {
  return isAdmin(actor) && actor.id !== driverId;
}

/**
 * An admin action goes to the audit trail when it needed the admin role: an admin who cancels an
 * order as its buyer or seller acts as a party, not as an admin (docs/rules/known-differences.md, Admin).
 */
export function actsAsAdminOn(
  actor: PolicyActor,
  allowedWithoutAdmin: (asParty: PolicyActor) => boolean,
): boolean {
  if (!isAdmin(actor)) return false;
  return !allowedWithoutAdmin({ id: actor.id, roles: actor.roles.filter((role) => role !== 'admin') });
}

// Orders

/** Every capacity in which the actor is linked to the order, for the transition rules. */
export function partiesOf(actor: PolicyActor, order: OrderParties): Party[] {
  const parties: Party[] = [];
  if (order.buyerId === actor.id) parties.push('buyer');
  if (order.sellerId === actor.id) parties.push('seller');
  if (order.driverId === actor.id) parties.push('driver');
  if (isAdmin(actor)) parties.push('admin');
  return parties;
}

/** The buyer, the seller, the assigned driver and admins; anyone else gets 404. */
export function canViewOrder(actor: PolicyActor, order: OrderParties): boolean {
  return partiesOf(actor, order).length > 0;
}

/** Drivers never see item prices, only their own earnings: a viewer who is only the driver. */
export function canSeeOrderPrices(actor: PolicyActor, order: OrderParties): boolean {
  return partiesOf(actor, order).some((party) => party !== 'driver');
}

/**
 * The delivery code is the buyer's to read to the driver (docs/rules/deliveries.md, Deliveries): the
 * buyer and admins see it, never the order's driver or seller, even an admin who is one of them.
 */
export function canReadDeliveryCode(actor: PolicyActor, order: OrderParties): boolean {
  if (order.driverId === actor.id || order.sellerId === actor.id) return false;
  return order.buyerId === actor.id || isAdmin(actor);
}

/** An order as the status rules need it: its parties, its path and where it stands. */
export interface OrderForChange extends OrderParties {
  isPickup: boolean;
  sellerDelivery: boolean;
  status: OrderStatus;
}

/**
 * Whether the actor, in any capacity they hold on the order, may move it to `to`
 * (docs/rules/catalog-and-orders.md, Order lifecycle; `canTransition` in src/domain/order-status.ts).
 */
export function canChangeOrderStatus(actor: PolicyActor, order: OrderForChange, to: OrderStatus): boolean {
  const path = fulfilmentOf(order);
  return partiesOf(actor, order).some((party) => canTransition(path, order.status, to, party));
}

/** The buyer or the seller while pending, an admin until the order is finished. */
export function canCancelOrder(actor: PolicyActor, order: OrderForChange): boolean {
  return canChangeOrderStatus(actor, order, 'cancelled');
}

// Payments

/**
 * Our addition (docs/rules/money.md, Payouts; docs/decisions/0018-money-against-stripe.md, Refunds):
 * an admin refunds all or part of a delivered or completed order, which takes back the payouts' share
 * of it, or of a cancelled one whose own refund failed for good
 * (docs/decisions/0022-money-in-combinations.md, A refund that fails).
 */
export function canRefundFinishedOrder(actor: PolicyActor, order: { status: string }): boolean {
  const status = orderStatusSchema.safeParse(order.status);
  return isAdmin(actor) && status.success && isClosed(status.data);
}

/** A payment is the buyer's who created it; nobody else, admins included, reads or confirms it. */
export function canViewPayment(actor: PolicyActor, payment: { buyerId: string }): boolean {
  return payment.buyerId === actor.id;
}

// Payout accounts (docs/rules/money.md, Payout accounts)

/** Sellers and drivers are paid out; a payout account is theirs to set up, nobody else's. */
export function canHavePayoutAccount(actor: Pick<PolicyActor, 'roles'>): boolean {
  return hasRole(actor, 'seller') || hasRole(actor, 'driver');
}

/**
 * A payout account's onboarding and dashboard pages are its own user's only, whatever the link:
 * an admin neither completes nor views someone's payout account.
 */
export function canManagePayoutAccount(actor: PolicyActor, account: { userId: string }): boolean {
  return account.userId === actor.id && canHavePayoutAccount(actor);
}

// Products

/** A seller never buys from themself (docs/rules/catalog-and-orders.md, Checkout and orders). */
export function canBuyProduct(actor: PolicyActor, product: { sellerId: string }): boolean {
  return product.sellerId !== actor.id;
}

/** A product is managed by its seller and by admins. */
export function canManageProduct(actor: PolicyActor, product: { sellerId: string }): boolean {
  return isAdmin(actor) || product.sellerId === actor.id;
}

// Addresses and availability

/** An address is managed by its owner only; anyone else gets 404. */
export function canManageAddress(actor: PolicyActor, address: { userId: string }): boolean {
  return address.userId === actor.id;
}

/**
 * Any signed-in user keeps their own schedule and blackouts (sellers for pickups, drivers for
 * deliveries); nobody, admins included, edits another user's.
 */
export function canManageAvailability(actor: PolicyActor, row: { userId: string }): boolean {
  return row.userId === actor.id;
}

/**
 * Pickup slots are public, so only users who may sell publish theirs: a driver's delivery hours are
 * not. Admins may act as sellers.
 */
export function canOfferPickups(user: Pick<PolicyActor, 'roles'>): boolean {
  return hasRole(user, 'seller') || isAdmin(user);
}

// Uploads (docs/rules/selling.md, Uploads and who sees a file)

/** Vehicle, licence and trailer images are saved by drivers only. */
export function canSaveDriverImages(actor: Pick<PolicyActor, 'roles'>): boolean {
  return hasRole(actor, 'driver');
}

/** Only the uploader sets their upload's path on something (which claims it for one use). */
export function canClaimUpload(actor: PolicyActor, upload: { ownerId: string }): boolean {
  return upload.ownerId === actor.id;
}

/**
 * Who reads an upload: public (product images, profile pictures) to anyone; owner (vehicle, trailer,
 * licence images) to the uploader and admins; order (delivery photos) to the order's parties and
 * admins; pending (not claimed yet) only to the uploader. `order` is the delivery photo's order,
 * undefined when it is gone.
 */
export function canReadUpload(
  actor: PolicyActor | null,
  upload: { visibility: string; ownerId: string },
  order: OrderParties | undefined,
): boolean {
  if (upload.visibility === 'public') return true;
  if (!actor) return false;
  const isOwner = actor.id === upload.ownerId;
  if (upload.visibility === 'pending') return isOwner;
  if (isOwner || isAdmin(actor)) return true;
  if (upload.visibility !== 'order' || !order) return false;
  return canViewOrder(actor, order);
}

// Deliveries (docs/rules/deliveries.md, Deliveries)

/** The driver's documents and approval, as the user row holds them. */
export interface DriverRecord {
  vehicleImageUrl: string | null;
  licenseImageUrl: string | null;
  trailerImageUrl: string | null;
  isVerified: boolean;
}

/**
 * What the actor still lacks before orders are offered to them: nothing for admins, else the steps
 * of driver verification (vehicle image, license image, admin approval) not done yet.
 */
export function missingToTakeOrders(actor: PolicyActor & DriverRecord): VerificationStep[] {
  if (isAdmin(actor)) return [];
  return driverVerificationOf(actor).missing;
}

/** Verified drivers and admins see available orders, accept and decline them. */
export function canTakeOrders(actor: PolicyActor & DriverRecord): boolean {
  return missingToTakeOrders(actor).length === 0;
}

/** An order as the offer rules need it. */
export interface OrderForOffer {
  status: string;
  driverId: string | null;
  isPickup: boolean;
  sellerDelivery: boolean;
  requiresTrailer: boolean;
}

/**
 * Whether the order is a driver's job at all for the actor, whatever its status: delivered by a
 * driver (not a pickup, not delivered by the seller), and a trailer order only for someone with a
 * trailer image on file. An order that is not is a 404 to them (docs/rules/deliveries.md, Deliveries).
 */
export function isDriverJobFor(actor: Pick<DriverRecord, 'trailerImageUrl'>, order: OrderForOffer): boolean {
  if (fulfilmentOf(order) !== 'driver') return false;
  return !order.requiresTrailer || canCarryTrailerOrders(actor);
}

/**
 * On offer at all, to someone (docs/rules/deliveries.md, Deliveries, Offered orders): delivered by a
 * driver, still pending and without a driver. Who it is offered to is {@link isOfferedTo}.
 */
export function isOnOffer(order: Omit<OrderForOffer, 'requiresTrailer'>): boolean {
  return fulfilmentOf(order) === 'driver' && order.status === 'pending' && order.driverId === null;
}

/**
 * Whether the actor may accept this order now, as the transition table says (pending → assigned,
 * `canTransition` in src/domain/order-status.ts): a driver's job for them, still offered, and they
 * take it as a driver or as an admin. Verification is checked before (`missingToTakeOrders`).
 */
export function canAcceptOrder(actor: PolicyActor & DriverRecord, order: OrderForOffer): boolean {
  if (!isOfferedTo(actor, order)) return false;
  const status = orderStatusSchema.safeParse(order.status);
  if (!status.success) return false;
  const takers: Party[] = [];
  if (hasRole(actor, 'driver')) takers.push('driver');
  if (isAdmin(actor)) takers.push('admin');
  return takers.some((party) => canTransition(fulfilmentOf(order), status.data, 'assigned', party));
}

/**
 * The offer rule (docs/rules/deliveries.md, Deliveries, Offered orders): the order is offered to the
 * actor now when it is on offer ({@link isOnOffer}) and a driver's job for them ({@link
 * isDriverJobFor}: a trailer order only with a trailer image on file). The same rule in SQL is
 * `offeredSql` in src/server/db/sql-offers.ts, by which the list of offers reads and accepting
 * writes; src/server/modules/deliveries/offer-rule.test.ts keeps the two equal. A decline is not
 * part of it: the driver's list leaves out what they declined, but they may still accept it.
 */
export function isOfferedTo(actor: Pick<DriverRecord, 'trailerImageUrl'>, order: OrderForOffer): boolean {
  return isOnOffer(order) && isDriverJobFor(actor, order);
}

/**
 * Only the order's assigned driver sets its arrival time and its delivery photo; anyone else,
 * buyer, seller and admins included, gets 404 for these calls.
 */
export function canManageDelivery(actor: PolicyActor, order: Pick<OrderParties, 'driverId'>): boolean {
  return order.driverId !== null && order.driverId === actor.id;
}

/**
 * The assigned driver hands an accepted order back while it is assigned, before Start Delivery;
 * it is then offered to other drivers again (docs/rules/deliveries.md, Deliveries).
 */
export function canHandBackOrder(
  actor: PolicyActor,
  order: Pick<OrderParties, 'driverId'> & { status: string },
): boolean {
  return canManageDelivery(actor, order) && canBeHandedBack(order.status);
}

// Messages (docs/rules/selling.md, Reviews and messages)

/**
 * A product thread is one buyer's conversation with the product's seller; an order thread belongs
 * to the order's parties (the assigned driver included) and admins.
 */
export type MessageThread =
  { kind: 'product'; buyerId: string; sellerId: string } | ({ kind: 'order' } & OrderParties);

export function canViewMessageThread(actor: PolicyActor, thread: MessageThread): boolean {
  if (thread.kind === 'order') return canViewOrder(actor, thread);
  // A seller has no conversation with themself about their own product.
  if (thread.buyerId === thread.sellerId) return false;
  return thread.buyerId === actor.id || thread.sellerId === actor.id;
}

/** Whoever may read a thread may write in it. */
export function canPostToMessageThread(actor: PolicyActor, thread: MessageThread): boolean {
  return canViewMessageThread(actor, thread);
}

/**
 * A buyer opens a conversation about a product by writing first; its seller only answers one that
 * exists (a seller cannot write to any user they like by naming them as the buyer).
 */
export function canOpenProductThread(actor: PolicyActor, product: { sellerId: string }): boolean {
  return product.sellerId !== actor.id;
}

// Live updates (docs/rules/live-updates.md, Live updates)

/**
 * Who is told when an order or its conversation changes: its buyer, its seller and its driver.
 * Admins may read every order but are not told of each one; their screens poll.
 */
export function orderAudience(order: OrderParties): string[] {
  return [order.buyerId, order.sellerId, order.driverId].filter((id): id is string => id !== null);
}

/** Who is told of a new message in a product conversation: its buyer and the product's seller. */
export function productThreadAudience(thread: { buyerId: string; sellerId: string }): string[] {
  return [thread.buyerId, thread.sellerId];
}

/** Who an event is for, as it is stored: named users, and drivers who may take an offered order. */
export interface LiveEventAudience {
  audience: readonly string[];
  /** An offer: for verified drivers and admins (decided when it is sent, by who they are then). */
  forDrivers: boolean;
  /** An offer needing a trailer: only for those with a trailer image on file. */
  trailerOnly: boolean;
}

/**
 * Whether a connected user receives an event: someone it names, or for an offer someone who may
 * take that order now ({@link canTakeOrders} and, for a trailer order, a trailer image). Nobody
 * else ever receives it, so no event reaches someone who may not see its subject.
 */
export function canReceiveLiveEvent(user: PolicyActor & DriverRecord, event: LiveEventAudience): boolean {
  if (event.audience.includes(user.id)) return true;
  if (!event.forDrivers) return false;
  if (!hasRole(user, 'driver') && !isAdmin(user)) return false;
  if (!canTakeOrders(user)) return false;
  return !event.trailerOnly || canCarryTrailerOrders(user);
}
