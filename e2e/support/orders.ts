import type { Locator, Page } from '@playwright/test';

/**
 * A step of the status timeline in an order's details, by the words it shows ("Order Placed",
 * "Out for Delivery", "Picked Up"); its text ends "(done)" or "(to come)" for a screen reader.
 */
export const timelineStep = (details: Locator, label: string) =>
  details.getByRole('list', { name: 'Status timeline' }).getByRole('listitem').filter({ hasText: label });

/** The refunds listed under the status timeline in an order's details. */
export const refundsList = (details: Locator) => details.getByRole('list', { name: 'Refunds' });

/** An order's details, the region named by its number (of the order list's choice, or any role's dashboard). */
export const orderDetails = (page: Page, order: { orderNumber: string }) =>
  page.getByRole('region', { name: order.orderNumber, exact: true });

/** The button of an order's buyer, seller or driver in its People, which opens their profile. */
export const partyButton = (details: Locator, role: 'Buyer' | 'Seller' | 'Driver') =>
  details
    .getByRole('region', { name: 'People', exact: true })
    .getByRole('button', { name: new RegExp(`^View profile of .+, ?${role}$`) });

/** A badge in the title of an order's details, beside its number ("Pending", "Partially refunded"). */
export const titleBadge = (details: Locator, label: string) =>
  details.getByRole('heading', { level: 2 }).getByText(label, { exact: true });
