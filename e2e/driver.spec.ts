import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { test, expect, signInAs, signUpFresh, DEMO } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { makePng } from './support/png';
import { orderDetails, partyButton, timelineStep } from './support/orders';
import { definitionOf } from './support/terms';

/**
 * The driver's area as a new driver clicks it on a phone (docs/rules/deliveries.md,
 * Deliveries): become a driver, upload the vehicle and license images, get
 * approved by an admin, accept an order, set the arrival time, start and deliver it; the buyer then
 * sees it delivered on the timeline, with the times.
 */

// A phone whose clock is not the marketplace's: times must still be Chicago's.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, timezoneId: 'Asia/Tokyo' });

interface ProductRow {
  id: string;
  available: boolean;
  stock: number;
  requiresTrailer: boolean;
  sellerDelivery: boolean;
}

interface OrderRow {
  id: string;
  orderNumber: string;
}

async function json<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  const body: T = await response.json();
  return body;
}

/**
 * A fresh buyer (in a browser of their own) pays for one unit of a product a driver delivers;
 * answers the buyer's page and the new order.
 */
async function buyerPlacesOrder(browser: Browser): Promise<{ buyer: Page; order: OrderRow }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const buyer = await context.newPage();
  await buyer.goto('/');
  await signUpFresh(buyer);
  const address = await buyer.request.post('/api/addresses', {
    data: { addressLine1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' },
  });
  expect(address.status(), await address.text()).toBe(201);
  const { id: deliveryAddressId } = (await address.json()) as { id: string };
  // The last product that fits, so the buyer journey tests running alongside take other ones.
  const products = await json<ProductRow[]>(buyer.request, '/api/products?limit=100');
  const product = products
    .filter((p) => p.available && p.stock >= 5 && !p.requiresTrailer && !p.sellerDelivery)
    .at(-1);
  if (!product) throw new Error('no demo product a driver delivers');
  const payment = await buyer.request.post('/api/payments', {
    data: { items: [{ productId: product.id, quantity: 1 }], isPickup: false, deliveryAddressId },
  });
  expect(payment.status(), await payment.text()).toBe(201);
  const { paymentId } = (await payment.json()) as { paymentId: string };
  const confirmed = await buyer.request.post(`/api/payments/${paymentId}/confirm`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Eve Tester' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { orders } = (await confirmed.json()) as { orders: OrderRow[] };
  const order = orders[0];
  if (!order) throw new Error('no order made');
  return { buyer, order };
}

/** Chooses a picture in the file chooser a button opens, and waits for the server to keep it. */
async function uploadThrough(
  page: Page,
  buttonTestId: string,
  savedUrl: string,
  colour: [number, number, number],
) {
  const chooserShown = page.waitForEvent('filechooser');
  await page.getByTestId(buttonTestId).click();
  const chooser = await chooserShown;
  const saved = page.waitForResponse(
    (response) => response.url().endsWith(savedUrl) && response.request().method() !== 'GET',
  );
  await chooser.setFiles({ name: 'photo.png', mimeType: 'image/png', buffer: makePng(16, colour) });
  expect((await saved).status()).toBe(200);
}

/** "2026-11-23T15:30": two hours from now on Chicago's wall clock (the marketplace time zone). */
function chicagoWallClockInTwoHours(): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Chicago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(Date.now() + 2 * 60 * 60 * 1000);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** "2026-11-23T15:30" → "3:30 PM". */
function twelveHourClock(wallClock: string): string {
  const [hours = 0, minutes = 0] = (wallClock.split('T')[1] ?? '').split(':').map(Number);
  return `${hours % 12 === 0 ? 12 : hours % 12}:${String(minutes).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

test('a new driver gets verified, accepts an order and delivers it; the buyer sees it delivered', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const { buyer, order } = await buyerPlacesOrder(browser);

  // Become a driver from the profile, with a home address in the city to measure distances from.
  await page.goto('/');
  await signUpFresh(page);
  const home = await page.request.post('/api/addresses', {
    data: { addressLine1: '20 N State St', city: 'Chicago', state: 'IL', zipCode: '60602' },
  });
  expect(home.status(), await home.text()).toBe(201);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Become a driver', exact: true }).click();
  await expect(page.getByText('You are now a driver', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitem', { name: 'Driver Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Driver Dashboard', level: 1 })).toBeVisible();

  // Not verified yet: no offers, and the card says what is missing.
  const card = page.getByRole('region', { name: 'Driver Verification' });
  await expect(card.getByText('Pending verification', { exact: true })).toBeVisible();
  await expect(page.getByTestId('text-offers-locked')).toContainText(
    "Still needed: a vehicle image, a license image and an admin's approval",
  );
  // The earnings have their own tab; the offers are the first screen.
  await expect(page.getByRole('tab', { name: 'Available Orders' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Earnings', exact: true }).click();
  for (const label of ['Total Earnings (90%)', 'Active Deliveries', 'Completed Deliveries'])
    await expect(page.getByTestId('driver-stats')).toContainText(label);
  await page.getByRole('tab', { name: 'Available Orders' }).click();

  await uploadThrough(page, 'button-upload-vehicle', '/api/drivers/vehicle-image', [30, 90, 200]);
  await expect(page.getByText('Vehicle image saved', { exact: true })).toBeVisible();
  await expect(card.getByRole('img', { name: 'Your vehicle image' })).toBeVisible();
  await uploadThrough(page, 'button-upload-license', '/api/drivers/license-image', [200, 60, 40]);
  await expect(card.getByTestId('step-license')).toHaveAttribute('data-done', 'true');
  await expect(card.getByTestId('step-approval')).toHaveAttribute('data-done', 'false');
  await expect(page.getByTestId('text-offers-locked')).toContainText("Still needed: an admin's approval");

  // An admin approves the driver.
  const { id: driverId } = await json<{ id: string }>(page.request, '/api/auth/user');
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAs(admin, DEMO.admin);
  const approved = await admin.request.patch(`/api/admin/drivers/${driverId}/verify`, {
    data: { isVerified: true },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  await adminContext.close();

  // Verified: the buyer's order is offered, with what it pays and how far it is.
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Driver Verification' }).getByText('Verified', { exact: true }),
  ).toBeVisible();
  await expect(page.getByTestId('text-driver-distance')).toHaveText('50 miles');
  const offer = page.getByTestId(`card-available-${order.id}`);
  await expect(offer).toContainText(order.orderNumber);
  await expect(offer).toContainText('$9.00');
  await expect(offer).toContainText('Chicago, IL 60601');
  await expect(offer.getByTestId(`text-available-pickup-${order.id}-distance`)).toHaveText(
    /^\d+\.\d mi away$/,
  );
  await expectNoAccessibilityViolations(page);
  await offer.getByTestId(`button-accept-${order.id}`).click();

  // Accepted: it opens in My Deliveries.
  await expect(page.getByRole('tab', { name: /^My Deliveries/ })).toHaveAttribute('aria-selected', 'true');
  const details = orderDetails(page, order);
  await expect(details.getByRole('heading', { name: order.orderNumber })).toBeVisible();
  await expect(details).toContainText('Assigned');
  await expect(definitionOf(details, 'Your earnings')).toHaveText('$9.00');
  await expect(definitionOf(details, 'Total')).toHaveCount(0);
  await expectNoAccessibilityViolations(page);

  // The arrival time, entered and shown on the marketplace's clock (Chicago), whatever the phone's.
  const wallClock = chicagoWallClockInTwoHours();
  await page.getByTestId('input-arrival-time').fill(wallClock);
  await page.getByTestId('button-save-arrival').click();
  await expect(page.getByText('Arrival time updated', { exact: true })).toBeVisible();
  await expect(page.getByTestId('text-current-arrival')).toHaveText(
    new RegExp(` · ${twelveHourClock(wallClock)} C[SD]T$`),
  );
  const arrival = await page.getByTestId('text-current-arrival').textContent();

  // The buyer sees who is coming and when, before the driver sets off.
  await buyer.goto(`/buyer/orders?order=${order.id}`);
  await expect(buyer.getByRole('status', { name: 'Expected arrival' })).toContainText(arrival ?? '');
  await expect(partyButton(orderDetails(buyer, order), 'Driver')).toContainText('Eve Tester');

  await page.getByRole('button', { name: 'Start Delivery', exact: true }).click();
  await expect(page.getByText('Delivery started', { exact: true })).toBeVisible();
  await expect(timelineStep(details, 'Out for Delivery')).toHaveAttribute('data-done', 'true');
  // Mark Delivered asks for the drop-off photo a standard order needs (docs/rules/deliveries.md, Deliveries).
  await page.getByRole('button', { name: 'Mark Delivered', exact: true }).click();
  const proof = page.getByRole('dialog', { name: 'Proof of Delivery' });
  await expect(proof.getByRole('button', { name: 'Confirm Delivery' })).toBeDisabled();
  const chooserShown = page.waitForEvent('filechooser');
  await proof.getByTestId('button-upload-delivery-photo').click();
  await (
    await chooserShown
  ).setFiles({
    name: 'drop-off.png',
    mimeType: 'image/png',
    buffer: makePng(16, [90, 160, 60]),
  });
  await expect(proof.getByRole('img', { name: /^Drop-off photo of/ })).toBeVisible();
  await proof.getByRole('button', { name: 'Confirm Delivery' }).click();
  await expect(page.getByText('Order delivered', { exact: true })).toBeVisible();
  await expect(timelineStep(details, 'Delivered')).toHaveAttribute('data-done', 'true');
  await expect(page.getByRole('button', { name: 'Mark Delivered', exact: true })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Earnings', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Completed Deliveries', exact: true })).toContainText('1');
  await expect(page.getByRole('region', { name: 'Total Earnings (90%)', exact: true })).toContainText(
    '$9.00',
  );
  await expect(page.getByRole('region', { name: 'Today', exact: true })).toContainText('$9.00');
  await expect(
    page
      .getByRole('region', { name: 'Trips', exact: true })
      .getByRole('listitem')
      .filter({ hasText: order.orderNumber }),
  ).toBeVisible();
  await expect(page.getByTestId(`text-trip-earnings-${order.id}`)).toHaveText('$9.00');

  // The buyer sees it delivered, with the driver, the arrival time and the time of every step.
  await buyer.goto(`/buyer/orders?order=${order.id}`);
  const buyersView = orderDetails(buyer, order);
  await expect(buyersView).toContainText('Delivered');
  for (const step of ['Order Placed', 'Driver Assigned', 'Out for Delivery', 'Delivered']) {
    const row = timelineStep(buyersView, step);
    await expect(row).toHaveAttribute('data-done', 'true');
    await expect(row.locator('time')).toHaveText(/ (AM|PM) C[SD]T$/);
  }
  await expect(timelineStep(buyersView, 'Delivered')).toHaveAttribute('aria-current', 'step');
  await expect(partyButton(buyersView, 'Driver')).toContainText('Eve Tester');
  await expect(definitionOf(buyersView, 'Estimated delivery')).toHaveText(arrival ?? '');
  await buyer.context().close();
});
