import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { scrollToSection } from './sections';

/** The dashboards that hold the payout card (docs/rules/money.md, Payout accounts). */
export type PayoutDashboard = 'seller' | 'driver';

/** The payout card of the dashboard the page is on. */
export const payoutCard = (page: Page) => page.getByTestId('card-payouts');

/**
 * On the test provider's onboarding page (a page of this server), choose how the setup ends and
 * come back to the dashboard the link was made for.
 */
export async function finishTestOnboarding(
  page: Page,
  dashboard: PayoutDashboard,
  outcome: 'complete' | 'incomplete' | 'restricted',
): Promise<void> {
  await expect(page).toHaveURL(/\/payouts\/test-onboarding\/tacct_[0-9a-f]{24}\?token=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payout Setup' })).toBeVisible();
  await page.getByTestId(`button-onboarding-${outcome}`).click();
  // The return address's ?payouts=return is taken off once the card has read the status.
  await expect(page).toHaveURL(new RegExp(`/${dashboard}/dashboard$`));
}

/**
 * A user of the dashboard's role sets up payouts from its card with the test provider and completes
 * the setup: their payout account is ready (the card shows Active).
 */
export async function setUpTestPayouts(page: Page, dashboard: PayoutDashboard): Promise<void> {
  await page.goto(`/${dashboard}/dashboard`);
  if (dashboard === 'seller') await scrollToSection(page, 'Earnings');
  await payoutCard(page).getByRole('button', { name: 'Set Up Payouts' }).click();
  await finishTestOnboarding(page, dashboard, 'complete');
  await expect(payoutCard(page).getByTestId('badge-payout-status')).toHaveText('Active');
}
