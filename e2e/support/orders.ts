import type { Locator } from '@playwright/test';

/**
 * A step of the status timeline in an order's details, by the words it shows ("Order Placed",
 * "Out for Delivery", "Picked Up"); its text ends "(done)" or "(to come)" for a screen reader.
 */
export const timelineStep = (details: Locator, label: string) =>
  details.getByRole('list', { name: 'Status timeline' }).getByRole('listitem').filter({ hasText: label });

/** The refunds listed under the status timeline in an order's details. */
export const refundsList = (details: Locator) => details.getByRole('list', { name: 'Refunds' });
