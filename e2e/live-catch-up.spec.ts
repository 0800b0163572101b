import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { test, expect, signInAs, signUpFresh, DEMO } from './support/fixtures';
import { payByCard } from './support/checkout';
import { orderDetails } from './support/orders';
import { unreadMessagesButton } from './support/header';

/**
 * Nothing lost live (docs/rules/live-updates.md, Live updates), on a phone: a message posted
 * while the page loads, before its event stream connects, still shows once it does; the arrival
 * time a driver sets shows on the buyer's order page as it happens. Both happen far sooner than
 * the 60 s polls, so only the stream can make these pass. The toast stays clear of the header and
 * of the control being used.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Within this the stream must have told the page: the polls it falls back on take 60 s. */
const LIVE_MS = 10_000;

interface ProductRow {
  id: string;
  available: boolean;
  stock: number;
  requiresTrailer: boolean;
  sellerDelivery: boolean;
  sellerId: string;
}

async function json<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  const body: T = await response.json();
  return body;
}

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, email);
  return page;
}

/** Whether two boxes on the screen share any pixel. */
async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [one, two] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!one || !two) throw new Error('a box is not on screen');
  return (
    one.x < two.x + two.width &&
    two.x < one.x + one.width &&
    one.y < two.y + two.height &&
    two.y < one.y + one.height
  );
}

test('a message posted while the page loads shows its badge and toast once the stream connects', async ({
  page,
  browser,
}) => {
  await page.goto('/');
  await signUpFresh(page);
  const me = await json<{ id: string }>(page.request, '/api/auth/user');
  const seller = await signedIn(browser, DEMO.seller);
  const sellerMe = await json<{ id: string }>(seller.request, '/api/auth/user');
  const products = await json<ProductRow[]>(page.request, '/api/products?limit=100');
  const product = products.find((row) => row.sellerId === sellerMe.id && row.available);
  if (!product) throw new Error('the demo seller has no product');
  const asked = await page.request.post('/api/product-messages', {
    data: { productId: product.id, content: 'Is it still for sale?' },
  });
  expect(asked.status(), await asked.text()).toBe(201);

  // The page reads its data; its event stream is held back until the seller has answered.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let isStreamHeld = false;
  await page.route('**/api/events**', async (route) => {
    isStreamHeld = true;
    await released;
    await route.continue();
  });
  const unreadRead = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/messages/unread' && response.ok(),
  );
  await page.goto('/buyer/orders');
  const header = page.locator('header').first();
  await expect(page.getByRole('heading', { name: 'My Orders' })).toBeVisible();
  await unreadRead;
  await expect.poll(() => isStreamHeld).toBe(true);
  await expect(unreadMessagesButton(page)).toHaveAccessibleName('Messages: nothing unread');

  const answered = await seller.request.post('/api/product-messages', {
    data: { productId: product.id, buyerId: me.id, content: 'Yes, it is.' },
  });
  expect(answered.status(), await answered.text()).toBe(201);
  release();

  await expect(unreadMessagesButton(page)).toHaveAccessibleName('Messages: 1 unread', { timeout: LIVE_MS });
  await expect(unreadMessagesButton(page)).toHaveText('1');
  const notice = page.locator('.toast-root').filter({ hasText: 'New message' });
  await expect(notice).toBeVisible();
  // On a phone the toast sits at the bottom: the My Orders header stays clear.
  expect(await overlaps(notice, header)).toBe(false);
  await seller.context().close();
});

test("the arrival time the driver sets shows on the buyer's order page live, without covering the message box", async ({
  page,
  browser,
}) => {
  // A fresh buyer pays for one unit of a product a driver delivers.
  await page.goto('/');
  await signUpFresh(page);
  const address = await page.request.post('/api/addresses', {
    data: { addressLine1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' },
  });
  expect(address.status(), await address.text()).toBe(201);
  const { id: deliveryAddressId } = (await address.json()) as { id: string };
  const products = await json<ProductRow[]>(page.request, '/api/products?limit=100');
  const product = products
    .filter((p) => p.available && p.stock >= 5 && !p.requiresTrailer && !p.sellerDelivery)
    .at(-2);
  if (!product) throw new Error('no demo product a driver delivers');
  const orders = await payByCard(page.request, {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId,
  });
  const order = orders[0];
  if (!order) throw new Error('no order made');

  // The demo driver takes it.
  const driver = await signedIn(browser, DEMO.driver);
  const accepted = await driver.request.post(`/api/orders/${order.id}/assign`);
  expect(accepted.status(), await accepted.text()).toBe(200);

  // The buyer looks at the order and starts a message to the driver, its box at the screen's bottom.
  await page.goto(`/buyer/orders?order=${order.id}`);
  const details = orderDetails(page, order);
  await expect(details).toContainText('Assigned');
  await expect(details.getByRole('status', { name: 'Expected arrival' })).toHaveCount(0);
  const box = details.getByRole('textbox', { name: 'Message about this order' });
  await box.fill('Please ring twice');
  await box.evaluate((element) => element.closest('form')?.scrollIntoView({ block: 'end' }));
  await expect(box).toBeFocused();

  // The driver sets the arrival time.
  const at = new Date(Date.now() + 3 * 60 * 60 * 1000);
  const set = await driver.request.patch(`/api/orders/${order.id}/estimated-time`, {
    data: { estimatedDeliveryTime: at.toISOString() },
  });
  expect(set.status(), await set.text()).toBe(200);
  const clock = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Chicago',
    hour: 'numeric',
    minute: '2-digit',
  }).format(at);

  await expect(details.getByRole('status', { name: 'Expected arrival' })).toContainText(clock, {
    timeout: LIVE_MS,
  });
  const notice = page.locator('.toast-root').filter({ hasText: 'Expected arrival' });
  await expect(notice).toContainText(`${order.orderNumber} is expected`);
  // The toast covers neither the Send button being reached for, nor the header.
  expect(await overlaps(notice, details.getByRole('button', { name: 'Send', exact: true }))).toBe(false);
  expect(await overlaps(notice, box)).toBe(false);
  expect(await overlaps(notice, page.locator('header').first())).toBe(false);
  await driver.context().close();
});
