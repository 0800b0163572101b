import { test, expect, signUpFresh } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { finishTestOnboarding, payoutCard, setUpTestPayouts } from './support/payouts';
import { payByCard } from './support/checkout';
import { scrollToSection } from './support/sections';

/**
 * Payout accounts with the built-in test provider (docs/rules/money.md,
 * Payout accounts): a new seller sets up payouts, leaves the setup unfinished and sees Incomplete,
 * completes it on the test onboarding page, comes back and sees Active; a ready account opens the
 * provider's dashboard in a new tab. `setUpTestPayouts` (e2e/support/payouts.ts) makes a ready
 * account in one call for tests that need one.
 */

test('a new seller sets up payouts, sees Incomplete, completes the setup and sees Active', async ({
  page,
}) => {
  // Five page loads and two accessibility passes: more than 30 s on CI's shared cores at worst.
  test.slow();
  await signUpFresh(page, 'seller');
  await page.goto('/seller/dashboard');
  await scrollToSection(page, 'Earnings');
  const card = payoutCard(page);
  await expect(card.getByRole('button', { name: 'Set Up Payouts' })).toBeVisible();
  await expectNoAccessibilityViolations(page);

  await card.getByRole('button', { name: 'Set Up Payouts' }).click();
  await expect(page.getByTestId('badge-test-account-status')).toHaveText('Incomplete');
  await expectNoAccessibilityViolations(page);
  await finishTestOnboarding(page, 'seller', 'incomplete');
  await expect(card.getByTestId('badge-payout-status')).toHaveText('Incomplete');

  await card.getByRole('button', { name: 'Complete Setup' }).click();
  await finishTestOnboarding(page, 'seller', 'complete');
  await expect(card.getByTestId('badge-payout-status')).toHaveText('Active');
  await expect(card.getByTestId('text-payout-status')).toContainText('Your payout account is ready.');
});

test('a driver whose account is restricted sees Restricted and can update the details', async ({ page }) => {
  await signUpFresh(page, 'driver');
  await page.goto('/driver/dashboard');
  // A driver's payouts are under Earnings; back from the provider, the dashboard opens there.
  await page.getByRole('tab', { name: 'Earnings', exact: true }).click();
  const card = payoutCard(page);
  await card.getByRole('button', { name: 'Set Up Payouts' }).click();
  await finishTestOnboarding(page, 'driver', 'restricted');
  await expect(card.getByTestId('badge-payout-status')).toHaveText('Restricted');
  await card.getByRole('button', { name: 'Update Details' }).click();
  await finishTestOnboarding(page, 'driver', 'complete');
  await expect(card.getByTestId('badge-payout-status')).toHaveText('Active');
});

test('the onboarding link of one seller does nothing for another', async ({ page, browser }) => {
  await signUpFresh(page, 'seller');
  await page.goto('/seller/dashboard');
  await scrollToSection(page, 'Earnings');
  await payoutCard(page).getByRole('button', { name: 'Set Up Payouts' }).click();
  await expect(page).toHaveURL(/\/payouts\/test-onboarding\//);
  const link = page.url();

  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await signUpFresh(otherPage, 'seller');
    await otherPage.goto(link);
    await expect(otherPage.getByRole('alert')).toContainText('Payout account not found');
    await expect(otherPage.getByTestId('button-onboarding-complete')).toHaveCount(0);
  } finally {
    await other.close();
  }
  // Untouched: the owner still sees the setup to finish.
  await page.goto('/seller/dashboard');
  await scrollToSection(page, 'Earnings');
  await expect(payoutCard(page).getByTestId('badge-payout-status')).toHaveText('Incomplete');
});

test('a ready payout account stays Active after a reload and opens its dashboard in a new tab', async ({
  page,
}) => {
  await signUpFresh(page, 'seller');
  await setUpTestPayouts(page, 'seller');
  await page.reload();
  await scrollToSection(page, 'Earnings');
  const card = payoutCard(page);
  await expect(card.getByTestId('badge-payout-status')).toHaveText('Active');
  await expect(card.getByRole('button', { name: /Set Up Payouts|Complete Setup/ })).toHaveCount(0);
  await expectNoAccessibilityViolations(page);

  // The provider's dashboard opens in a new tab, showing the simulated account.
  const opened = page.context().waitForEvent('page');
  await card.getByRole('button', { name: /Open Payout Dashboard/ }).click();
  const tab = await opened;
  await expect(tab).toHaveURL(/\/payouts\/test-dashboard\/tacct_[0-9a-f]{24}$/);
  await expect(tab.getByTestId('badge-test-account-status')).toHaveText('Active');
  await tab.close();
});

test('a new seller sets up payouts, and a delivered order of theirs shows paid out in their earnings', async ({
  page,
  browser,
}) => {
  // A journey of two browsers and several loads of the seller dashboard: on CI's two shared cores
  // it once ran past the default 30 s with its work nearly done.
  test.slow();
  // The seller sets up payouts (docs/decisions/0013-money-movement.md). The Incomplete step on the
  // way is the first test's; here the account is made ready in one pass.
  await signUpFresh(page, 'seller');
  await setUpTestPayouts(page, 'seller');

  // A product the seller delivers, bought by a new buyer in a browser of their own.
  const sellerAddress = await page.request.post('/api/addresses', {
    data: { addressLine1: '2 Market St', city: 'Chicago', state: 'IL', zipCode: '60601' },
  });
  expect(sellerAddress.status(), await sellerAddress.text()).toBe(201);
  const name = `Payout Lamp ${Date.now()}`;
  const created = await page.request.post('/api/products', {
    data: {
      name,
      price: '40.00',
      category: 'Furniture',
      stock: 1,
      sellerDelivery: true,
      sellerDeliveryFee: '5.00',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: productId } = (await created.json()) as { id: string };
  const context = await browser.newContext();
  try {
    const buyer = await context.newPage();
    await buyer.goto('/');
    await signUpFresh(buyer);
    const address = await buyer.request.post('/api/addresses', {
      data: { addressLine1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' },
    });
    expect(address.status(), await address.text()).toBe(201);
    const { id: deliveryAddressId } = (await address.json()) as { id: string };
    const orders = await payByCard(buyer.request, {
      items: [{ productId, quantity: 1 }],
      isPickup: false,
      deliveryAddressId,
    });
    const order = orders[0];
    if (!order) throw new Error('no order made');

    // The seller delivers it.
    for (const status of ['in-transit', 'delivered']) {
      const moved = await page.request.patch(`/api/orders/${order.id}/status`, { data: { status } });
      expect(moved.status(), await moved.text()).toBe(200);
    }

    // Their earnings show it paid out.
    await page.goto('/seller/dashboard');
    await scrollToSection(page, 'Earnings');
    const history = page.getByTestId('card-payouts-history');
    const row = history.getByTestId(`row-payout-${order.orderNumber}`);
    await expect(row).toContainText('Paid out');
    await expect(history.getByTestId('text-payouts-owed')).toHaveText('$0.00');
    await expect(history.getByTestId('text-payouts-paid')).not.toHaveText('$0.00');
    await expectNoAccessibilityViolations(page);
  } finally {
    await context.close();
  }
});
