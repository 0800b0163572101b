import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { getJson, someoneElse } from './support/people';
import { test, expect, signInAs, DEMO } from './support/fixtures';
import { openTab } from './support/tabs';

/**
 * Running the marketplace (docs/rules/accounts.md, Moderation), as an admin clicks it: take a role away and
 * suspend a user, whose open tab is signed out at once; hide a product, edit it and show it again;
 * find the flagged orders of a suspended seller and export them (docs/rules/known-differences.md, Admin).
 * Every test makes its own people.
 */

/** A seller's new listing with an address to pick it up from, through the API. */
async function listProduct(request: APIRequestContext, name: string) {
  const address = await request.post('/api/addresses', {
    data: { addressLine1: '20 N State St', city: 'Chicago', state: 'IL', zipCode: '60602' },
  });
  expect(address.status(), await address.text()).toBe(201);
  const created = await request.post('/api/products', {
    data: { name, price: '25.00', category: 'Furniture', stock: 5 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return id;
}

/** A buyer's checkout through the API (the buyer journey has its own spec): one order, paid by card. */
async function buy(request: APIRequestContext, productId: string) {
  const address = await request.post('/api/addresses', {
    data: { addressLine1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' },
  });
  expect(address.status(), await address.text()).toBe(201);
  const addresses = await getJson<{ id: string; isPrimary: boolean }[]>(request, '/api/addresses');
  const deliveryAddressId = addresses.find((row) => row.isPrimary)?.id;
  const payment = await request.post('/api/payments', {
    data: { items: [{ productId, quantity: 1 }], isPickup: false, deliveryAddressId },
  });
  expect(payment.status(), await payment.text()).toBe(201);
  const { paymentId } = (await payment.json()) as { paymentId: string };
  const confirmed = await request.post(`/api/payments/${paymentId}/confirm`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Eve Tester' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { orders } = (await confirmed.json()) as { orders: { orderNumber: string }[] };
  const order = orders[0];
  if (!order) throw new Error('no order made');
  return order;
}

async function openAdmin(page: Page, tab: string) {
  await signInAs(page, DEMO.admin);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
  await openTab(page, tab);
}

/** Finds the user by email on the Users tab and opens their details. */
async function openUser(page: Page, email: string) {
  await page.getByLabel('Search users').fill(email);
  await expect(
    page
      .getByRole('table', { name: 'Users' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell') }),
  ).toHaveCount(1);
  await page.getByRole('button', { name: 'Details of Eve Tester' }).click();
  const dialog = page.getByRole('dialog', { name: 'Eve Tester' });
  await expect(dialog.getByText(email)).toBeVisible();
  return dialog;
}

async function suspend(page: Page, dialog: ReturnType<Page['getByRole']>) {
  await dialog.getByRole('button', { name: 'Suspend user' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Suspend this user?' });
  await confirm.getByRole('button', { name: 'Suspend user' }).click();
  await expect(confirm).toBeHidden();
  await expect(dialog.getByText('Suspended', { exact: true })).toBeVisible();
}

test('an admin takes the seller role away and suspends a user, whose open tab is signed out', async ({
  page,
  browser,
}) => {
  const seller = await someoneElse(browser, 'seller');
  // The seller's own tab, open on their home page and listening for live updates. The first stream asks to
  // catch up from the page's cursor: /api/events?since=… (docs/rules/live-updates.md, Live updates).
  const listening = seller.page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/events',
  );
  await seller.page.goto('/');
  await expect(seller.page.getByRole('link', { name: 'Seller Dashboard' }).first()).toBeAttached();
  await listening;
  await seller.page.evaluate(() => {
    (window as Window & { notReloaded?: boolean }).notReloaded = true;
  });

  await openAdmin(page, 'Users');
  const dialog = await openUser(page, seller.email);
  const roles = dialog.getByRole('list', { name: 'Granted roles' });
  await expect(roles.getByRole('listitem')).toHaveText(['Buyer', /^Seller \(current\)/]);

  await dialog.getByRole('button', { name: 'Remove seller role' }).click();
  await expect(page.getByText('Eve Tester is no longer a seller.', { exact: true })).toBeVisible();
  await expect(roles.getByRole('listitem')).toHaveText(['Buyer (current)']);
  await expect(dialog.getByRole('combobox', { name: 'Current role of Eve Tester' })).toHaveText('Buyer');
  // The seller's tab follows: the role is gone from its header.
  await expect(seller.page.getByText('Your account changed', { exact: true }).first()).toBeVisible();
  await expect(seller.page.getByRole('link', { name: 'Seller Dashboard' })).toHaveCount(0);

  await suspend(page, dialog);
  await expect(dialog.getByRole('button', { name: 'Restore user' })).toBeVisible();

  // Signed out in the open tab, by the live event, without a reload.
  await expect(
    seller.page.getByRole('heading', { name: 'Fast & Reliable Delivery Marketplace' }),
  ).toBeVisible();
  expect(await seller.page.evaluate(() => (window as Window & { notReloaded?: boolean }).notReloaded)).toBe(
    true,
  );
  expect((await seller.request.get('/api/auth/user')).status()).toBe(401);
  // And told why when signing in again.
  const again = await seller.request.post('/api/login', {
    data: { email: seller.email, password: seller.password },
  });
  expect(again.status()).toBe(403);
  expect(await again.text()).toContain('Your account is suspended.');
  await seller.context.close();

  // The list says so too, and the activity has both actions.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: seller.email })).toContainText('Suspended');
  await openTab(page, 'Activity');
  await expect(
    page.getByRole('row', { name: seller.email }).filter({ hasText: 'Suspended a user' }),
  ).toBeVisible();
  await expect(
    page.getByRole('row', { name: seller.email }).filter({ hasText: 'Took a role away' }),
  ).toBeVisible();
});

test('an admin hides a product after a confirmation, edits it and shows it again', async ({
  page,
  browser,
}) => {
  const seller = await someoneElse(browser, 'seller');
  const name = `Moderated Chair ${Date.now()}`;
  const productId = await listProduct(seller.request, name);
  await seller.context.close();

  await openAdmin(page, 'Products');
  await page.getByLabel('Search products').fill(name);
  const row = page.getByRole('row', { name });
  await expect(row).toContainText(name);

  await row.getByRole('button', { name: `Hide product ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Hide this product?' });
  await expect(confirm).toContainText('leaves the catalog');
  await confirm.getByRole('button', { name: 'Hide product' }).click();
  await expect(page.getByText(`${name} is no longer in the catalog.`, { exact: true })).toBeVisible();
  // Still listed for the admin, marked Hidden; gone for everyone else.
  await expect(row.getByText('Hidden', { exact: true })).toBeVisible();
  const visitor = await browser.newContext();
  expect((await visitor.request.get(`/api/products/${productId}`)).status()).toBe(404);

  // Edit in the listing form.
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const form = page.getByRole('dialog', { name: 'Edit Listing' });
  await expect(form.getByLabel('Name')).toHaveValue(name);
  await form.getByLabel('Stock').fill('9');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(form).toBeHidden();
  await expect(row.getByText('9', { exact: true })).toBeVisible();

  await row.getByRole('button', { name: `Show product ${name}` }).click();
  await expect(page.getByText(`${name} is back in the catalog.`, { exact: true })).toBeVisible();
  await expect(row.getByText('Hidden', { exact: true })).toHaveCount(0);
  expect((await visitor.request.get(`/api/products/${productId}`)).status()).toBe(200);
  await visitor.close();
});

test('the orders of a suspended seller are flagged, found by seller and days, and exported', async ({
  page,
  browser,
}) => {
  const seller = await someoneElse(browser, 'seller');
  const productId = await listProduct(seller.request, `Flagged Table ${Date.now()}`);
  await seller.context.close();
  const buyer = await someoneElse(browser);
  const order = await buy(buyer.request, productId);
  await buyer.context.close();

  await openAdmin(page, 'Users');
  const dialog = await openUser(page, seller.email);
  await suspend(page, dialog);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await openTab(page, 'Orders');
  await page.getByRole('searchbox', { name: 'Seller' }).fill(seller.email);
  const row = page.getByRole('button', { name: order.orderNumber });
  await expect(row).toContainText('Seller suspended');
  await expect(page.getByRole('list', { name: 'Orders' }).getByRole('listitem')).toHaveCount(1);

  // Days it was not placed on find nothing.
  await page.getByLabel('Placed from').fill('2020-01-01');
  await page.getByLabel('Placed to').fill('2020-01-02');
  await expect(page.getByText('No orders found')).toBeVisible();
  await page.getByLabel('Placed to').fill('');
  await expect(row).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const csv = fs.readFileSync(file, 'utf8');
  expect(csv).toContain(order.orderNumber);
  expect(csv.trim().split('\n')).toHaveLength(2);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const theme of ['light', 'dark'] as const) {
    test(`each user is a card with the role select and Details under the name (${theme})`, async ({
      page,
      browser,
    }) => {
      const seller = await someoneElse(browser, 'seller');
      await seller.context.close();
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await openAdmin(page, 'Users');
      await page.getByLabel('Search users').fill(seller.email);
      const row = page.getByRole('row', { name: seller.email });
      await expect(row).toContainText(seller.email);
      // Nothing in the card scrolls or sticks out sideways.
      const fits = await row.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return [...element.querySelectorAll('*')].every((child) => {
          const inner = child.getBoundingClientRect();
          return inner.width === 0 || (inner.left >= box.left - 1 && inner.right <= box.right + 1);
        });
      });
      expect(fits).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await row.scrollIntoViewIfNeeded();
      await expect(row.getByRole('combobox', { name: 'Current role of Eve Tester' })).toBeInViewport();
      await expect(row.getByRole('button', { name: 'Details of Eve Tester' })).toBeInViewport();
      await expectNoAccessibilityViolations(page);

      await row.getByRole('button', { name: 'Details of Eve Tester' }).click();
      const dialog = page.getByRole('dialog', { name: 'Eve Tester' });
      await expect(dialog.getByRole('button', { name: 'Remove seller role' })).toBeVisible();
      await expectNoAccessibilityViolations(page);
    });
  }
});
