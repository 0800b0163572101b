import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, signInAs, signUpFresh, DEMO } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { cents, money } from './support/money';
import { getJson, someoneElse } from './support/people';
import { deliverWithPhoto } from './support/deliveries';
import { openTab } from './support/tabs';
import { payByCard } from './support/checkout';
import { orderDetails, refundsList, titleBadge } from './support/orders';
import { definitionOf } from './support/terms';
import { scrollToSection } from './support/sections';

/**
 * Refunds everyone can see (docs/decisions/0018-money-against-stripe.md,
 * Refunds): an admin refunds part of a delivered order; the buyer, the seller, the driver and the
 * admin each see it Partially refunded (the amount where prices are shown, never to the driver),
 * in the order and its timeline, and the seller's earnings drop by their share.
 */

/**
 * `REFUND_SHOTS_DIR=/tmp/shots-refunds npx playwright test e2e/refunds.spec.ts` also takes screenshots
 * of the refund form and of refunded orders, light and dark, to look at; the suite does not.
 */
const SHOTS = process.env.REFUND_SHOTS_DIR;

/** The element alone (a form), or the whole page (an order: the sticky header would cover its top). */
async function shoot(target: Locator | Page, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  if ('goto' in target) await target.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  else await target.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function useTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
}

/** The seller's share of a refund of `refund` cents: their earnings × refund / total, half up. */
function shareOf(earnings: number, refund: number, total: number): number {
  return Math.floor((earnings * refund * 2 + total) / (2 * total));
}

test('an admin refunds part of a delivered order; buyer, seller, driver and admin see it', async ({
  page,
  browser,
}) => {
  test.slow();
  // The seller: a fresh account with a product a driver delivers.
  await signUpFresh(page, 'seller');
  const sellerAddress = await page.request.post('/api/addresses', {
    data: { addressLine1: '2 Market St', city: 'Chicago', state: 'IL', zipCode: '60601' },
  });
  expect(sellerAddress.status(), await sellerAddress.text()).toBe(201);
  const created = await page.request.post('/api/products', {
    data: { name: `Refund Lamp ${Date.now()}`, price: '40.00', category: 'Furniture', stock: 2 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: productId } = (await created.json()) as { id: string };

  // The buyer pays in a browser of their own.
  const buyer = await someoneElse(browser);
  const driverContext = await browser.newContext();
  const adminContext = await browser.newContext();
  try {
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
    const placed = orders[0];
    if (!placed) throw new Error('no order made');

    // A demo driver takes it and delivers it.
    const driver = await driverContext.newPage();
    await signInAs(driver, DEMO.driver);
    const assigned = await driver.request.post(`/api/orders/${placed.id}/assign`);
    expect(assigned.status(), await assigned.text()).toBe(200);
    const started = await driver.request.patch(`/api/orders/${placed.id}/status`, {
      data: { status: 'in-transit' },
    });
    expect(started.status(), await started.text()).toBe(200);
    await deliverWithPhoto(driver.request, placed.id);
    const order = await getJson<{ total: string; sellerEarnings: string; orderNumber: string; id: string }>(
      page.request,
      `/api/orders/${placed.id}`,
    );

    // The seller's earnings before the refund.
    await page.goto('/seller/dashboard');
    await scrollToSection(page, 'Earnings');
    const earnings = page.getByRole('region', { name: 'Total Earnings', exact: true });
    await expect(earnings).toContainText(money(cents(order.sellerEarnings)));

    // The admin refunds $10.00 of it from the Orders tab.
    const admin = await adminContext.newPage();
    await signInAs(admin, DEMO.admin);
    await admin.goto('/admin');
    await useTheme(admin, 'light');
    await admin.reload();
    await openTab(admin, 'Orders');
    await admin.getByLabel('Search orders by order number').fill(order.orderNumber.toLowerCase());
    await admin.getByRole('button', { name: order.orderNumber }).click();
    const details = orderDetails(admin, order);
    await expect(titleBadge(details, 'Delivered')).toBeVisible();
    const form = admin.getByRole('region', { name: 'Refund this finished order' });
    await expect(form.getByText(/can still be refunded\.$/)).toContainText(money(cents(order.total)));
    await form.getByRole('radio', { name: 'An amount' }).check();
    await form.getByLabel('Amount ($)').fill('10.00');
    await form.getByLabel('Reason').fill('One shade arrived cracked');
    await expect(form.getByRole('button', { name: /^Refund / })).toHaveText('Refund $10.00');
    await expectNoAccessibilityViolations(admin);
    await shoot(form, 'admin-refund-form-light');
    await form.getByRole('button', { name: /^Refund / }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Refund Order' }).click();
    await expect(admin.getByText(`$10.00 of ${order.orderNumber} was refunded`).first()).toBeVisible();

    // The admin sees it: Partially refunded, the amount in the timeline, and the form still offered for the
    // rest.
    await expect(titleBadge(details, 'Partially refunded')).toHaveText('Partially refunded');
    await expect(refundsList(details)).toContainText('Refunded $10.00');
    await expect(definitionOf(details, 'Refunded')).toContainText('$10.00');
    await expect(form.getByText(/can still be refunded\.$/)).toContainText(money(cents(order.total) - 1000));
    await shoot(admin, 'admin-order-partially-refunded-light');
    if (SHOTS) {
      await useTheme(admin, 'dark');
      await admin.reload();
      await openTab(admin, 'Orders');
      await admin.getByLabel('Search orders by order number').fill(order.orderNumber.toLowerCase());
      await admin.getByRole('button', { name: order.orderNumber }).click();
      await expect(titleBadge(details, 'Partially refunded')).toBeVisible();
      await expect(admin.locator('html')).toHaveClass(/dark/);
      await shoot(admin, 'admin-order-partially-refunded-dark');
    }
    await form.getByRole('radio', { name: 'Chosen items' }).check();
    await expect(form.getByRole('list', { name: 'Items to refund' })).toContainText('$40.00 each');
    await form.getByLabel('Reason').fill('The second look');
    await shoot(form, 'admin-refund-form-dark');

    // The buyer sees it, with the amount.
    await buyer.page.goto(`/buyer/orders?order=${order.id}`);
    const buyersView = orderDetails(buyer.page, order);
    await expect(titleBadge(buyersView, 'Partially refunded')).toBeVisible();
    await expect(refundsList(buyersView)).toContainText('Refunded $10.00');
    await expect(definitionOf(buyersView, 'Refunded')).toContainText('$10.00');
    if (SHOTS) {
      await useTheme(buyer.page, 'dark');
      await buyer.page.reload();
      await expect(titleBadge(buyersView, 'Partially refunded')).toBeVisible();
      await shoot(buyer.page, 'buyer-order-partially-refunded-dark');
    }

    // The driver sees the state, never the amount.
    await driver.goto(`/driver/dashboard?order=${order.id}`);
    const driversView = orderDetails(driver, order);
    await expect(titleBadge(driversView, 'Partially refunded')).toBeVisible();
    await expect(refundsList(driversView)).toHaveText(/Refund made/);
    await expect(refundsList(driversView)).not.toContainText('$');
    await expect(definitionOf(driversView, 'Refunded')).toHaveCount(0);

    // The seller sees it, and their earnings drop by their share of the refund.
    const share = shareOf(cents(order.sellerEarnings), 1000, cents(order.total));
    await page.goto(`/seller/dashboard?order=${order.id}`);
    const sellersView = orderDetails(page, order);
    await expect(titleBadge(sellersView, 'Partially refunded')).toBeVisible();
    await expect(refundsList(sellersView)).toContainText('Refunded $10.00');
    await scrollToSection(page, 'Earnings');
    await expect(earnings).toContainText(money(cents(order.sellerEarnings) - share));
    await expectNoAccessibilityViolations(page);
  } finally {
    await buyer.context.close();
    await driverContext.close();
    await adminContext.close();
  }
});
