import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { test, expect, signInAs, signUpFresh, DEMO } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { demoProducts } from './support/demo-catalog';
import { uploadPicture } from './support/deliveries';
import { makePng } from './support/png';
import { orderDetails } from './support/orders';

/**
 * Proof of delivery on a phone (docs/rules/deliveries.md, Deliveries): Mark
 * Delivered takes the code the buyer reads from their order page and a drop-off photo, or a photo
 * and the place; the buyer then sees the proof on the order. The marketplace's settings stay the
 * defaults (trailer orders: photo and code; standard orders: photo), as other journeys run alongside.
 */

test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  geolocation: { latitude: 41.8781, longitude: -87.6298 },
  permissions: ['geolocation'],
});

interface ProductRow {
  id: string;
  sellerName: string;
  available: boolean;
  stock: number;
  requiresTrailer: boolean;
  sellerDelivery: boolean;
}

interface OrderRow {
  id: string;
  orderNumber: string;
}

/** A fresh buyer (a phone of their own) pays for one unit of a product a driver delivers. */
async function buyerPlacesOrder(
  browser: Browser,
  trailer: boolean,
): Promise<{ buyer: Page; order: OrderRow }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const buyer = await context.newPage();
  await buyer.goto('/');
  await signUpFresh(buyer);
  const address = await buyer.request.post('/api/addresses', {
    data: { addressLine1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' },
  });
  expect(address.status(), await address.text()).toBe(201);
  const { id: deliveryAddressId } = (await address.json()) as { id: string };
  // A demo product (another test's may be hidden or its seller suspended meanwhile), the first
  // that fits, where the driver journey takes the last one.
  const products = await demoProducts<ProductRow>(buyer.request);
  const product = products.find(
    (p) => p.available && p.stock >= 3 && p.requiresTrailer === trailer && !p.sellerDelivery,
  );
  if (!product) throw new Error(`no demo product a driver delivers (trailer: ${String(trailer)})`);
  const payment = await buyer.request.post('/api/payments', {
    data: { items: [{ productId: product.id, quantity: 1 }], isPickup: false, deliveryAddressId },
  });
  expect(payment.status(), await payment.text()).toBe(201);
  const { paymentId } = (await payment.json()) as { paymentId: string };
  const confirmed = await buyer.request.post(`/api/payments/${paymentId}/confirm`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Bea Buyer' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { orders } = (await confirmed.json()) as { orders: OrderRow[] };
  const order = orders[0];
  if (!order) throw new Error('no order made');
  return { buyer, order };
}

/** The demo driver (verified, with a trailer) accepts the order and sets off with it. */
async function driverSetsOff(request: APIRequestContext, order: OrderRow, trailer: boolean): Promise<void> {
  const accepted = await request.post(`/api/orders/${order.id}/assign`);
  expect(accepted.status(), await accepted.text()).toBe(200);
  if (trailer) {
    const deliveryPhotoUrl = await uploadPicture(request, [120, 126, 136]);
    const saved = await request.patch(`/api/orders/${order.id}/delivery-photo`, {
      data: { deliveryPhotoUrl },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  const started = await request.patch(`/api/orders/${order.id}/status`, { data: { status: 'in-transit' } });
  expect(started.status(), await started.text()).toBe(200);
}

/** Opens the delivery in My Deliveries, taps Mark Delivered and adds a drop-off photo in the dialog. */
async function openProofWithPhoto(page: Page, order: OrderRow) {
  await page.goto(`/driver/dashboard?order=${order.id}`);
  await expect(orderDetails(page, order)).toContainText('In Transit');
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
    buffer: makePng(24, [200, 120, 40]),
  });
  await expect(proof.getByRole('img', { name: /^Drop-off photo of/ })).toBeVisible();
  return proof;
}

test('the driver types the code the buyer reads and adds a photo; the buyer sees the proof', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const { buyer, order } = await buyerPlacesOrder(browser, true);
  await signInAs(page, DEMO.driver);
  await driverSetsOff(page.request, order, true);

  // The buyer's order page shows the code while the driver is on the way.
  await buyer.goto(`/buyer/orders?order=${order.id}`);
  const notice = buyer.getByRole('group', { name: 'Delivery code' });
  await expect(notice).toContainText('Delivery code');
  await expect(notice).toContainText('Give this code to your driver at drop-off.');
  const code = (await notice.getByText(/^\d+$/).textContent()) ?? '';
  expect(code).toMatch(/^\d{4}$/);
  await expectNoAccessibilityViolations(buyer);

  // The driver never gets it, and cannot confirm with the photo alone on a trailer order.
  const driversView = await page.request.get(`/api/orders/${order.id}`);
  expect(await driversView.json()).not.toHaveProperty('deliveryCode');
  const proof = await openProofWithPhoto(page, order);
  const codeInput = proof.getByLabel('Delivery code from the buyer');
  await expect(codeInput).toHaveAttribute('inputmode', 'numeric');
  await expect(codeInput).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(proof.getByRole('button', { name: 'Confirm Delivery' })).toBeDisabled();
  await codeInput.fill(code);
  await expectNoAccessibilityViolations(page);
  await proof.getByRole('button', { name: 'Confirm Delivery' }).click();
  await expect(page.getByText('Order delivered', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark Delivered', exact: true })).toHaveCount(0);

  // The buyer sees the proof, and the code is gone from the page.
  await buyer.reload();
  const buyersView = orderDetails(buyer, order);
  const shown = buyersView.getByRole('region', { name: 'Proof of Delivery' });
  await expect(shown.getByText(/^Delivered /)).toHaveText(/^Delivered .+ (AM|PM) C[SD]T$/);
  await expect(shown.getByText('Code confirmed', { exact: true })).toHaveText('Code confirmed');
  const photo = shown.getByRole('img', { name: /^Drop-off photo of/ });
  // The photo loads lazily: the buyer scrolls to it, then it is drawn at its real size once fetched.
  await photo.scrollIntoViewIfNeeded();
  await expect(photo).toBeVisible();
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(24);
  await expect(buyer.getByRole('group', { name: 'Delivery code' })).toHaveCount(0);
  await buyer.context().close();
});

test('the driver delivers a standard order with a photo and the place; the buyer sees both', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const { buyer, order } = await buyerPlacesOrder(browser, false);
  await signInAs(page, DEMO.driver);
  await driverSetsOff(page.request, order, false);

  const proof = await openProofWithPhoto(page, order);
  // A standard order asks no code by default.
  await expect(proof.getByLabel('Delivery code from the buyer')).toHaveCount(0);
  await proof.getByRole('button', { name: /^(Add my location|Location added)$/ }).click();
  await expect(proof.getByRole('button', { name: /^(Add my location|Location added)$/ })).toHaveText(
    'Location added',
  );
  await proof.getByRole('button', { name: 'Confirm Delivery' }).click();
  await expect(page.getByText('Order delivered', { exact: true })).toBeVisible();

  await buyer.goto(`/buyer/orders?order=${order.id}`);
  const shown = orderDetails(buyer, order).getByRole('region', { name: 'Proof of Delivery' });
  await expect(shown.getByText(/^Delivered /)).toBeVisible();
  await expect(shown.getByRole('img', { name: /^Drop-off photo of/ })).toBeVisible();
  await expect(shown.getByText('Code confirmed', { exact: true })).toHaveCount(0);
  await expect(shown.getByRole('link', { name: /^Drop-off place/ })).toHaveAttribute(
    'href',
    /openstreetmap\.org\/\?mlat=41\.8781&mlon=-87\.6298/,
  );
  await expectNoAccessibilityViolations(buyer);
  await buyer.context().close();
});
