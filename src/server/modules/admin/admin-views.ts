import { formatCents, parseCents } from '../../../domain/money';
import { orderStatusSchema } from '../../../domain/order-status';
import { ROLES, displayName, sortRoles, type Role } from '../../../domain/roles';
import {
  orderFlagOf,
  type AdminDriver,
  type AdminOrder,
  type AdminProduct,
  type AdminUser,
  type AdminUserDetail,
  type DriverDecision,
} from '../../../domain/admin';
import { payoutAccountStatusSchema } from '../../../domain/payout-accounts';
import type { users } from '../../db/schema';

type UserRow = typeof users.$inferSelect;

const money = (value: string) => formatCents(parseCents(value));
const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** "first last", else the capitalised role word (docs/rules/screens-shared.md, Client behaviour). */
export function nameOf(firstName: string | null, lastName: string | null, role: Role): string {
  return displayName({ firstName, lastName, role });
}

export function toAdminUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    role: isRole(row.role) ? row.role : 'buyer',
    roles: sortRoles(row.roles.filter(isRole)),
    isVerified: row.isVerified,
    suspendedAt: row.suspendedAt?.toISOString() ?? null,
    withheldRoles: sortRoles(row.withheldRoles.filter(isRole)),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A party of an order as the admin rows read it. */
interface PartyRow {
  firstName: string | null;
  lastName: string | null;
  email: string;
  suspendedAt: Date | null;
}

export interface OrderListRow {
  order: {
    id: string;
    orderNumber: string;
    status: string;
    isPickup: boolean;
    sellerDelivery: boolean;
    total: string;
    platformFee: string;
    createdAt: Date;
  };
  buyer: PartyRow;
  seller: PartyRow;
  /** null while no driver holds the order. */
  driver: PartyRow | null;
}

export function toAdminOrder(row: OrderListRow): AdminOrder {
  const status = orderStatusSchema.parse(row.order.status);
  return {
    id: row.order.id,
    orderNumber: row.order.orderNumber,
    status,
    isPickup: row.order.isPickup,
    sellerDelivery: row.order.sellerDelivery,
    total: money(row.order.total),
    platformFee: money(row.order.platformFee),
    buyerName: nameOf(row.buyer.firstName, row.buyer.lastName, 'buyer'),
    sellerName: nameOf(row.seller.firstName, row.seller.lastName, 'seller'),
    flag: orderFlagOf({
      status,
      buyerSuspended: row.buyer.suspendedAt !== null,
      sellerSuspended: row.seller.suspendedAt !== null,
      driverSuspended: (row.driver?.suspendedAt ?? null) !== null,
    }),
    createdAt: row.order.createdAt.toISOString(),
  };
}

export interface ProductListRow {
  product: {
    id: string;
    name: string;
    category: string;
    price: string;
    stock: number;
    available: boolean;
    hiddenAt: Date | null;
    onSale: boolean;
    imageUrl: string | null;
    sellerId: string;
    createdAt: Date;
  };
  sellerFirstName: string | null;
  sellerLastName: string | null;
}

export function toAdminProduct({ product, sellerFirstName, sellerLastName }: ProductListRow): AdminProduct {
  const { hiddenAt, ...rest } = product;
  return {
    ...rest,
    hidden: hiddenAt !== null,
    price: money(product.price),
    sellerName: nameOf(sellerFirstName, sellerLastName, 'seller'),
    createdAt: product.createdAt.toISOString(),
  };
}

export interface DecisionRow {
  action: string;
  createdAt: Date;
  actorFirstName: string | null;
  actorLastName: string | null;
}

const DECISION_OF_ACTION: Record<string, DriverDecision> = {
  'driver.approved': 'approved',
  'driver.rejected': 'rejected',
  'driver.revoked': 'revoked',
};

export function toAdminDriver(row: UserRow, decision: DecisionRow | undefined): AdminDriver {
  const kind = decision ? DECISION_OF_ACTION[decision.action] : undefined;
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    isVerified: row.isVerified,
    vehicleImageUrl: row.vehicleImageUrl,
    licenseImageUrl: row.licenseImageUrl,
    trailerImageUrl: row.trailerImageUrl,
    documentsChangedAt: row.documentsChangedAt?.toISOString() ?? null,
    lastDecision:
      decision && kind
        ? {
            decision: kind,
            at: decision.createdAt.toISOString(),
            adminName: nameOf(decision.actorFirstName, decision.actorLastName, 'admin'),
          }
        : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export const DRIVER_DECISION_ACTIONS = Object.keys(DECISION_OF_ACTION);

/** The parts of a user's details that are not on their row (admin.service.ts gathers them). */
interface UserDetailParts {
  addressCount: number;
  orders: AdminUserDetail['orders'];
}

/**
 * A user's details (docs/rules/known-differences.md, Admin): which driver documents are on file, not where
 * they are; the payout account as last stored.
 */
export function toAdminUserDetail(row: UserRow, parts: UserDetailParts): AdminUserDetail {
  const status = payoutAccountStatusSchema.safeParse(row.stripeAccountStatus);
  return {
    ...toAdminUser(row),
    twoFactorEnabled: row.twoFactorEnabledAt !== null,
    driver: {
      isVerified: row.isVerified,
      hasVehicleImage: row.vehicleImageUrl !== null,
      hasLicenseImage: row.licenseImageUrl !== null,
      hasTrailerImage: row.trailerImageUrl !== null,
    },
    payouts: {
      stripeAccountStatus: status.success ? status.data : null,
      onboardingComplete: row.stripeOnboardingComplete,
      payoutsEnabled: row.payoutsEnabled,
    },
    addressCount: parts.addressCount,
    orders: parts.orders,
  };
}
