import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { test, expect, signInAs, DEMO } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { getJson, someoneElse } from './support/people';
import { makePng } from './support/png';
import { openTab } from './support/tabs';
import { orderDetails } from './support/orders';
import { definitionOf } from './support/terms';

/**
 * The admin area as an admin clicks it: find a user by email and make them a
 * seller, approve a driver after looking at the images, add, rename and delete a category, change a
 * commission rate and see the next order use it, page through orders and cancel one
 * (docs/rules/known-differences.md, Admin).
 */

/** Uploads a picture and saves it as one of the driver's images, as the driver's page does. */
async function saveDriverImage(
  request: APIRequestContext,
  kind: 'vehicle' | 'license' | 'trailer',
  rgb: [number, number, number],
) {
  const png = makePng(64, rgb);
  const started = await request.post('/api/objects/upload', {
    data: { contentType: 'image/png', size: png.length },
  });
  expect(started.status(), await started.text()).toBe(200);
  const { uploadURL, objectPath } = (await started.json()) as { uploadURL: string; objectPath: string };
  const put = await request.put(uploadURL, { data: png, headers: { 'content-type': 'image/png' } });
  expect(put.status(), await put.text()).toBe(200);
  const saved = await request.put(`/api/drivers/${kind}-image`, { data: { imageUrl: objectPath } });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** A buyer's checkout through the API (the buyer journey has its own spec): one order, paid by card. */
async function buy(request: APIRequestContext, productId: string, quantity = 1) {
  const address = await request.post('/api/addresses', {
    data: { addressLine1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' },
  });
  expect([200, 201, 409]).toContain(address.status());
  const addresses = await getJson<{ id: string; isPrimary: boolean }[]>(request, '/api/addresses');
  const deliveryAddressId = addresses.find((row) => row.isPrimary)?.id;
  const payment = await request.post('/api/payments', {
    data: { items: [{ productId, quantity }], isPickup: false, deliveryAddressId },
  });
  expect(payment.status(), await payment.text()).toBe(201);
  const { paymentId } = (await payment.json()) as { paymentId: string };
  const confirmed = await request.post(`/api/payments/${paymentId}/confirm`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Eve Tester' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { orders } = (await confirmed.json()) as { orders: { id: string; orderNumber: string }[] };
  const order = orders[0];
  if (!order) throw new Error('no order made');
  return order;
}

async function openAdmin(page: Page) {
  await signInAs(page, DEMO.admin);
  await page.goto('/');
  await page.getByRole('link', { name: 'Admin Dashboard' }).first().click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
}

/** The rows of the admin table with this caption that hold data, not the column headings. */
function dataRows(page: Page, caption: string) {
  return page
    .getByRole('table', { name: caption })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

/** The row of the categories list that shows this category's name. */
function categoryRow(page: Page, name: string) {
  return page.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });
}

async function chooseOption(page: Page, trigger: Locator, option: string) {
  await trigger.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('shows the four summary cards and the tabs of the dashboard', async ({ page }) => {
  await openAdmin(page);
  for (const title of ['Total Users', 'Total Orders', 'Total Products', 'Total Revenue']) {
    await expect(page.getByText(title, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('region', { name: 'Total Users', exact: true })).toContainText(/\d/);
  await expect(
    page.getByRole('region', { name: 'Total Revenue', exact: true }).getByText(/^Platform fees on \$/),
  ).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Admin sections' });
  for (const name of [
    'Users',
    'Orders',
    'Products',
    'Categories',
    'Commission Settings',
    'Driver Verification',
    'Activity',
  ]) {
    await expect(tabs.getByRole('tab', { name })).toBeVisible();
  }
  await expectNoAccessibilityViolations(page);
});

test('finds a user by email and makes them a seller', async ({ page, browser }) => {
  const newcomer = await someoneElse(browser);
  await newcomer.context.close();
  await openAdmin(page);

  await page.getByLabel('Search users').fill(newcomer.email.toUpperCase());
  const row = page.getByRole('row', { name: newcomer.email });
  await expect(row).toContainText(newcomer.email);
  await expect(dataRows(page, 'Users')).toHaveCount(1);
  await expect(page.getByText(/^Page \d+ of/)).toHaveCount(0);

  const roleSelect = row.getByRole('combobox', { name: /^Current role of / });
  await chooseOption(page, roleSelect, 'Seller');
  await expect(page.getByText("Eve Tester's current role is now Seller.", { exact: true })).toBeVisible();
  await expect(roleSelect).toHaveText('Seller');
  await expect(row).toContainText('Seller');

  // The admin's own row cannot be changed.
  await page.getByLabel('Search users').fill(DEMO.admin);
  await expect(
    page.getByRole('row', { name: DEMO.admin }).getByRole('combobox', { name: /^Current role of / }),
  ).toBeDisabled();

  // The change is in the activity, with the values before and after.
  await openTab(page, 'Activity');
  const entry = page.getByRole('row', { name: newcomer.email }).filter({ hasText: 'Changed a role' });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('Role: Buyer → Seller');
});

test('approves a driver after looking at the vehicle and license images', async ({ page, browser }) => {
  const driver = await someoneElse(browser, 'driver');
  await saveDriverImage(driver.request, 'vehicle', [30, 90, 200]);
  await saveDriverImage(driver.request, 'license', [200, 60, 40]);

  await openAdmin(page);
  await openTab(page, 'Driver Verification');
  await page.getByLabel('Search drivers').fill(driver.email);
  const card = page.getByRole('region', { name: driver.email });
  await expect(card.getByText('Pending review', { exact: true })).toBeVisible();
  await expect(card.getByText('No trailer', { exact: true })).toBeVisible();

  for (const kind of ['vehicle', 'license'] as const) {
    await card.getByRole('button', { name: `View ${kind} image` }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`^${kind} image of`, 'i') });
    const image = dialog.getByRole('img', { name: new RegExp(`^${kind} image of Eve Tester$`, 'i') });
    await expect(image).toBeVisible();
    // The picture really arrived (the admin may read a driver's images).
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(64);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Driver approved', { exact: true })).toBeVisible();
  // Pending drivers only: the approved one leaves the list.
  await expect(card).toHaveCount(0);
  await chooseOption(page, page.getByRole('combobox', { name: 'Filter by verification' }), 'Verified');
  await expect(card.getByText('Verified', { exact: true })).toBeVisible();
  await expect(card.getByText(/^Approved by /)).toBeVisible();
  const me = await getJson<{ isVerified: boolean }>(driver.request, '/api/auth/user');
  expect(me.isVerified).toBe(true);

  // Someone else never sees those images.
  const vehicle = await card
    .getByRole('button', { name: 'View vehicle image' })
    .locator('img')
    .getAttribute('src');
  expect((await page.request.get(vehicle ?? '')).status()).toBe(200);
  const stranger = await someoneElse(browser);
  expect((await stranger.request.get(vehicle ?? '')).status()).toBe(404);
  await stranger.context.close();
  await driver.context.close();
});

test.describe('categories', () => {
  // The duplicate below is refused by the server on purpose; Chromium logs that answer.
  test.use({ allowedConsoleErrors: [/status of 40[19] \((Unauthorized|Conflict)\)/] });

  test('adds, renames and deletes a category', async ({ page }) => {
    const name = `Lanterns ${Date.now().toString(36)}`;
    await openAdmin(page);
    await openTab(page, 'Categories');

    await page.getByLabel('New category').fill('   ');
    await page.getByRole('button', { name: 'Add Category' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();

    await page.getByLabel('New category').fill(`  ${name}  `);
    await page.getByRole('button', { name: 'Add Category' }).click();
    await expect(page.getByText(`"${name}" was added.`, { exact: true })).toBeVisible();
    await expect(page.getByLabel('New category')).toHaveValue('');

    // The same name in another case is refused by the server, with its reason.
    await page.getByLabel('New category').fill(name.toUpperCase());
    await page.getByRole('button', { name: 'Add Category' }).click();
    await expect(
      page.getByText(`Failed to create category: A category named "${name}" already exists`, {
        exact: true,
      }),
    ).toBeVisible();

    await page.getByLabel('Search categories').fill(name);
    const row = categoryRow(page, name);
    await expect(row).toContainText('No products');
    // Under load the row's buttons are drawn again as the list refreshes, and a click can land on
    // the one being replaced; a person whose click did nothing clicks again.
    await expect(async () => {
      await row.getByRole('button', { name: `Rename ${name}` }).click();
      await expect(page.getByLabel(`New name for ${name}`)).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await page.getByLabel(`New name for ${name}`).fill(`${name} and Lamps`);
    // Once in CI the rename field stayed open after Save with no toast (a press lost the same way).
    // Save is pressed again only while it is still shown and enabled: while the rename is under way
    // it reads "Saving..." and is disabled, and once done the field closes.
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expect(async () => {
      if ((await save.isVisible()) && (await save.isEnabled())) await save.click({ timeout: 2_000 });
      await expect(page.getByLabel(`New name for ${name}`)).toBeHidden({ timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByText(`"${name}" is now "${name} and Lamps".`, { exact: true })).toBeVisible();
    const renamed = categoryRow(page, `${name} and Lamps`);
    await expect(renamed).toBeVisible();
    const publicList = await getJson<{ name: string }[]>(page.request, '/api/categories');
    expect(publicList.map((category) => category.name)).toContain(`${name} and Lamps`);

    const confirm = page.getByRole('alertdialog', { name: 'Delete this category?' });
    // The admin also hears other tests' new delivery requests. Once in CI this click opened no
    // dialog while such a request was announced in a toast; a person whose click is lost clicks
    // again, and the dialog must then open.
    await expect(async () => {
      await renamed.getByRole('button', { name: `Delete ${name} and Lamps` }).click();
      await expect(confirm).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await expect(confirm).toContainText(`"${name} and Lamps" will be removed`);
    await confirm.getByRole('button', { name: 'Delete Category' }).click();
    await expect(page.getByText(`"${name} and Lamps" was deleted.`, { exact: true })).toBeVisible();
    await expect(renamed).toHaveCount(0);
    await expect(page.getByText('No categories found')).toBeVisible();

    // A category that products use cannot be deleted; the row says why.
    const [product] = await getJson<{ category: string }[]>(page.request, '/api/products?limit=1');
    const category = product?.category ?? '';
    await page.getByLabel('Search categories').fill(category);
    const used = categoryRow(page, category);
    await expect(used).toContainText(/Used by \d+ products?/);
    await expect(used.getByRole('button', { name: `Delete ${category}` })).toBeDisabled();
  });
});

test('changes a commission rate, and the next order uses it', async ({ page, browser }) => {
  // A new seller has no 30-day sales (no loyalty discount), and a 500.00 item reaches the first
  // sales price tier: 10% base − 1 tier × the reduction. Only orders of 500.00 or more change, so
  // the specs running alongside are not affected.
  const seller = await someoneElse(browser, 'seller');
  const address = await seller.request.post('/api/addresses', {
    data: { addressLine1: '20 N State St', city: 'Chicago', state: 'IL', zipCode: '60602' },
  });
  expect(address.status(), await address.text()).toBe(201);
  const created = await seller.request.post('/api/products', {
    data: { name: 'Tier Test Sofa', price: '500.00', category: 'Furniture', stock: 5 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: productId } = (await created.json()) as { id: string };
  await seller.context.close();

  await openAdmin(page);
  await openTab(page, 'Commission Settings');
  const reduction = page.getByLabel('Sales price tier reduction (%)');
  await expect(reduction).toHaveValue('1');
  await expect(page.getByLabel('Base commission rate (%)')).toHaveValue('10');

  // A bad value is caught before saving.
  await reduction.fill('150');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Enter a percentage from 0 to 100 with at most 2 decimals')).toBeVisible();

  try {
    await reduction.fill('3');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    // Saved: the server has it, and the form shows it as saved. Not the "Settings updated" toast: the
    // demo admin is told of other tests' orders meanwhile, and a newer toast takes its place.
    await expect.poll(() => tierReduction(page)).toBe('0.0300');
    await expect(reduction).toHaveValue('3');

    const buyer = await someoneElse(browser);
    const order = await buy(buyer.request, productId);
    await buyer.context.close();

    await openTab(page, 'Orders');
    await page.getByLabel('Search orders by order number').fill(order.orderNumber);
    await page.getByRole('button', { name: order.orderNumber }).click();
    const details = orderDetails(page, order);
    await expect(details.getByRole('heading', { name: order.orderNumber })).toBeVisible();
    // 10% − 3% = 7% of 500.00.
    await expect(details.getByText('Sales commission (7%)')).toBeVisible();
    await expect(definitionOf(details, /^Sales commission/)).toHaveText('$35.00');
  } finally {
    await openTab(page, 'Commission Settings');
    await page.getByLabel('Sales price tier reduction (%)').fill('1');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => tierReduction(page)).toBe('0.0100');
  }
});

/** The sales price tier reduction the server keeps now. */
async function tierReduction(page: Page): Promise<string> {
  const settings = await getJson<{ salesPriceTierReduction: string }>(
    page.request,
    '/api/commission-settings',
  );
  return settings.salesPriceTierReduction;
}

test('pages through orders and cancels one that is not finished', async ({ page, browser }) => {
  await openAdmin(page);
  // Enough orders for a second page, the last one to cancel.
  const { total } = await getJson<{ total: number }>(page.request, '/api/admin/orders');
  const buyer = await someoneElse(browser);
  const products = await getJson<{ id: string; stock: number; requiresTrailer: boolean; price: string }[]>(
    buyer.request,
    '/api/products?limit=100',
  );
  const product = products.find((p) => p.stock >= 15 && !p.requiresTrailer && Number(p.price) < 100);
  if (!product) throw new Error('no demo product to buy');
  let order = await buy(buyer.request, product.id);
  for (let made = 1; total + made <= 10; made++) order = await buy(buyer.request, product.id);
  await buyer.context.close();

  await openTab(page, 'Orders');
  const pageText = page.getByText(/^Page \d+ of/);
  await expect(pageText).toHaveText(/^Page 1 of \d+$/);
  const rows = page.getByRole('list', { name: 'Orders' }).getByRole('listitem');
  await expect(rows).toHaveCount(10);
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  const firstOnPage1 = await rows.first().textContent();

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(pageText).toHaveText(/^Page 2 of \d+$/);
  await expect(rows.first()).not.toHaveText(firstOnPage1 ?? '');
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(pageText).toHaveText(/^Page 1 of \d+$/);
  await expect(rows.first()).toHaveText(firstOnPage1 ?? '');

  // One order: one page, and no pager.
  await page.getByLabel('Search orders by order number').fill(order.orderNumber.toLowerCase());
  await expect(rows).toHaveCount(1);
  await expect(pageText).toHaveCount(0);

  await page.getByRole('button', { name: order.orderNumber }).click();
  const details = orderDetails(page, order);
  await expect(details.getByText('Order Placed')).toBeVisible();
  await details.getByTestId('button-cancel-order').click();
  await page
    .getByRole('alertdialog', { name: 'Cancel this order?' })
    .getByRole('button', { name: 'Cancel Order' })
    .click();
  await expect(page.getByText(`${order.orderNumber} was cancelled and`).first()).toBeVisible();
  await expect(page.getByRole('button', { name: order.orderNumber })).toContainText('Cancelled');
  await expect(details.getByTestId('button-cancel-order')).toHaveCount(0);

  await openTab(page, 'Activity');
  await expect(
    page.getByRole('row', { name: order.orderNumber }).filter({ hasText: 'Cancelled an order' }),
  ).toContainText('Status: Pending → Cancelled');
});
