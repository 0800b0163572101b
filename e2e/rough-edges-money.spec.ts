import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, signInAs, signUpFresh, DEMO } from './support/fixtures';
import { getJson, someoneElse } from './support/people';
import { makePng } from './support/png';
import { orderDetails } from './support/orders';
import { definitionOf } from './support/terms';
import { scrollToSection } from './support/sections';

/**
 * Money and uploads as a seller, a buyer and an admin meet them on a 390 px phone and a desktop
 * (docs/rules/money.md, Fees and commission; docs/rules/screens-shared.md, Uploader;
 * docs/rules/known-differences.md, Known differences).
 */

const PHONE = { width: 390, height: 844 };

/** A product of the signed-in seller of this request context; answers its id. */
async function listProduct(request: APIRequestContext, data: Record<string, unknown>): Promise<string> {
  const created = await request.post('/api/products', {
    data: { category: 'Furniture', stock: 5, ...data },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Pays with the test card for one unit of a product, delivered to a new address of the buyer. */
async function buyOne(request: APIRequestContext, productId: string) {
  const address = await request.post('/api/addresses', {
    data: { addressLine1: '1 W Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  });
  expect(address.status(), await address.text()).toBe(201);
  const { id: deliveryAddressId } = (await address.json()) as { id: string };
  const payment = await request.post('/api/payments', {
    data: { items: [{ productId, quantity: 1 }], isPickup: false, deliveryAddressId },
  });
  expect(payment.status(), await payment.text()).toBe(201);
  const { paymentId } = (await payment.json()) as { paymentId: string };
  const confirmed = await request.post(`/api/payments/${paymentId}/confirm`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Pat Buyer' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { orders } = (await confirmed.json()) as {
    orders: { id: string; orderNumber: string; platformFee: string }[];
  };
  const order = orders[0];
  if (!order) throw new Error('no order made');
  return order;
}

async function usePhone(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
}

test.describe('a seller-delivered order says which commission it carries', () => {
  test('the commission card and the order view name the sales commission only (phone)', async ({
    page,
    browser,
  }) => {
    await usePhone(page);
    await signUpFresh(page, 'seller');
    const productId = await listProduct(page.request, {
      name: 'Hand-Delivered Bench',
      price: '84.00',
      sellerDelivery: true,
      sellerDeliveryFee: '7.50',
    });
    const buyer = await someoneElse(browser);
    const order = await buyOne(buyer.request, productId);
    await buyer.context.close();
    // 10% of the 84.00 product total; nothing of the 7.50 the seller delivers for.
    expect(order.platformFee).toBe('8.40');

    await page.goto('/seller/dashboard');
    await scrollToSection(page, 'Earnings');
    await expect(page.getByTestId('text-seller-delivered-commission').first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Commission Structure' })).toContainText(
      'Orders you deliver yourself carry only the sales commission above, on the product total; there is no delivery commission',
    );

    const details = orderDetails(page, order);
    await expect(definitionOf(details, /^Sales commission/)).toHaveText('$8.40');
    await expect(details).toContainText('Sales commission (10%)');
    await expect(definitionOf(details, /^Delivery commission/)).toHaveText('$0.00');
    await expect(details).toContainText('Delivery commission (none: delivered by the seller)');
    await expect(definitionOf(details, 'Platform commission')).toHaveText('$8.40');
    await expect(definitionOf(details, /^Seller earnings/)).toHaveText('$83.10');
    await expect(
      details.getByText(
        'Delivered by the seller: this order carries only the sales commission, on the product total.',
        { exact: true },
      ),
    ).toBeVisible();
  });
});

test.describe('trailer delivery says what it costs', () => {
  test('the product page shows the flat fee that checkout charges (phone)', async ({ page }) => {
    await usePhone(page);
    await signUpFresh(page, 'seller');
    const productId = await listProduct(page.request, {
      name: 'Trailer Hay Bales',
      price: '120.00',
      requiresTrailer: true,
    });
    await page.goto(`/products/${productId}`);
    const delivery = page.getByTestId('info-delivery');
    await expect(delivery).toContainText('Trailer delivery');
    await expect(delivery).toContainText('$50.00');
    await expect(delivery).toContainText('A flat fee, whatever the distance');
    await expect(delivery).not.toContainText('per mile');
  });
});

test.describe('an upload the storage keeps refusing', () => {
  // One pattern: Playwright reads a second array element as the option's settings.
  test.use({ allowedConsoleErrors: [/status of (401 \(Unauthorized\)|503)/] });

  test('is sent five times, 0, 1, 3 and 5 s apart, then says "Failed to upload file" once', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signUpFresh(page);
    const puts: number[] = [];
    await page.route('**/api/objects/local/**', async (route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      puts.push(Date.now());
      await route.fulfill({ status: 503, body: 'busy' });
    });
    await page.goto('/profile');
    await expect(page.getByRole('button', { name: 'Upload photo' })).toBeEnabled();
    await page
      .getByTestId('input-profile-image')
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: makePng(8, [16, 150, 110]) });

    const notices = page.getByTestId('upload-notices');
    await expect(notices).toContainText('Failed to upload file', { timeout: 30_000 });
    expect(puts).toHaveLength(5);
    const gaps = puts.slice(1).map((at, i) => at - (puts[i] ?? 0));
    // The waits are the spec's; a busy machine may only add to them.
    expect(gaps[1]).toBeGreaterThanOrEqual(1000);
    expect(gaps[2]).toBeGreaterThanOrEqual(3000);
    expect(gaps[3]).toBeGreaterThanOrEqual(5000);
    await expect(notices.getByText('Failed to upload file')).toHaveCount(1);
    await expect(page.getByTestId('img-avatar-initials')).toBeVisible();
    // Nothing more is sent once it has given up.
    const me = await getJson<{ profileImageUrl: string | null }>(page.request, '/api/auth/user');
    expect(me.profileImageUrl).toBeNull();
    expect(puts).toHaveLength(5);
  });
});

/** The card's trend as the spec words it: "+N% from last week". */
const trendText = (percent: number) => `${percent > 0 ? '+' : ''}${percent}% from last week`;

/** The trend line of the statistic card titled `card`. */
async function expectTrend(page: Page, card: string, percent: number | null): Promise<void> {
  const trend = page.getByRole('region', { name: card, exact: true }).getByText(/from last week$/);
  if (percent === null) {
    await expect(trend).toHaveCount(0);
    return;
  }
  await expect(trend).toHaveText(trendText(percent));
  // Green when positive, red otherwise.
  await expect(trend).toHaveClass(percent > 0 ? /text-emerald/ : /text-red/);
}

test.describe("the statistic cards' week-over-week trend", () => {
  test('the admin sees each summary card change from last week, as the server counts it (phone)', async ({
    page,
  }) => {
    await usePhone(page);
    await signInAs(page, DEMO.admin);
    await page.goto('/admin');
    await expect(page.getByRole('region', { name: 'Total Orders' })).toContainText(/\d/);
    const { trends } = await getJson<{
      trends: {
        users: number | null;
        orders: number | null;
        products: number | null;
        revenue: number | null;
      };
    }>(page.request, '/api/admin/summary');
    // The demo's orders were placed over the last three weeks, so the week before has some.
    expect(trends.orders).not.toBeNull();
    await expectTrend(page, 'Total Orders', trends.orders);
    await expectTrend(page, 'Total Users', trends.users);
    await expectTrend(page, 'Total Products', trends.products);
    await expectTrend(page, 'Total Revenue', trends.revenue);
  });

  test("the seller's earnings cards show theirs, and none for a new seller with nothing to compare", async ({
    page,
  }) => {
    await signInAs(page, DEMO.seller);
    await page.goto('/seller/dashboard');
    await scrollToSection(page, 'Earnings');
    await expect(page.getByRole('region', { name: 'Orders Completed' })).toContainText(/\d/);
    const earnings = await getJson<{ earningsTrend: number | null; orderCountTrend: number | null }>(
      page.request,
      '/api/earnings/seller',
    );
    expect(earnings).toHaveProperty('earningsTrend');
    await expectTrend(page, 'Total Earnings', earnings.earningsTrend);
    await expectTrend(page, 'Orders Completed', earnings.orderCountTrend);
  });
});
