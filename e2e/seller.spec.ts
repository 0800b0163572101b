import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, signUpFresh } from './support/fixtures';
import { scrollToSection } from './support/sections';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { makePng } from './support/png';
import { choosePickupTime, slotToPay } from './support/slots';
import { cartButton, headerLink } from './support/header';
import { orderDetails, timelineStep, titleBadge } from './support/orders';

/**
 * The seller's area as a new seller clicks it: become a seller, list a product with three pictures and
 * reorder them, see it on the visitors' home page, sell it for pickup, mark it ready and picked up, and watch
 * the earnings change (docs/rules/selling.md, Seller listings; Seller earnings;
 * docs/rules/catalog-and-orders.md, Order lifecycle).
 */

interface SellerProductRow {
  id: string;
  name: string;
  imageUrl: string | null;
  imageUrls: string[];
  available: boolean;
}

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  const body: T = await response.json();
  return body;
}

/**
 * What a seller sets up on the addresses and availability pages (each has its own spec): a primary
 * address to be picked up from, and pickup hours every day, so that a pickup time always exists.
 */
async function setUpPickups(request: APIRequestContext): Promise<void> {
  const address = await request.post('/api/addresses', {
    data: { addressLine1: '400 E Monroe St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  });
  expect(address.status(), await address.text()).toBe(201);
  for (let dayOfWeek = 0; dayOfWeek <= 6; dayOfWeek++) {
    const schedule = await request.post('/api/availability/schedules', {
      data: { dayOfWeek, startTime: '00:00', endTime: '23:30' },
    });
    expect(schedule.status(), await schedule.text()).toBe(201);
  }
}

/** The data-url of each picture in the listing form, in the order shown. */
async function shownImageOrder(page: Page): Promise<string[]> {
  return page
    .getByTestId('image-list-editor')
    .locator('[data-testid^="image-item-"]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-url') ?? ''));
}

/** The row of the seller's listings whose product link has this name. */
function listingRow(page: Page, name: string) {
  return page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });
}

async function payWithTestCard(page: Page): Promise<void> {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Bailey Buyer');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

test.describe('the seller area (docs/rules/selling.md, Seller listings)', () => {
  test('a new seller lists a product with three images, sells it for pickup and sees the earnings', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const name = `Cedar Birdhouse ${Date.now().toString(36)}`;

    // Become a seller from the profile, and open the dashboard from the header.
    await signUpFresh(page);
    await setUpPickups(page.request);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Become a seller', exact: true }).click();
    await expect(page.getByText('You are now a seller', { exact: true })).toBeVisible();
    await headerLink(page, 'Seller Dashboard').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Seller Dashboard' })).toBeVisible();
    await scrollToSection(page, 'Earnings');
    await expect(page.getByRole('region', { name: 'Total Earnings', exact: true })).toContainText('$0.00');
    await expect(page.getByRole('region', { name: 'Orders Completed', exact: true })).toContainText('0');
    await scrollToSection(page, 'My Products');
    await expect(page.getByText(/^You have not listed anything yet\./)).toBeVisible();
    await expect(page.getByTestId('text-no-seller-orders')).toBeVisible();
    await expect(page.getByTestId('text-loyalty-discount')).toHaveText('0%');

    // The create-listing dialog starts at the spec's defaults.
    // The page's own button; an empty list offers a second one below.
    await page.getByRole('button', { name: 'Create Listing' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create New Listing' });
    await expect(dialog.getByRole('heading', { name: 'Create New Listing' })).toBeVisible();
    await expect(dialog.getByLabel('Price ($)')).toHaveValue('0');
    await expect(dialog.getByLabel('Stock')).toHaveValue('0');
    await expect(dialog.getByRole('combobox', { name: 'Category' })).toHaveText('Books');
    await expect(dialog.getByLabel('Your delivery fee ($)')).toHaveCount(0);
    await dialog.getByLabel('I deliver it myself').check();
    await expect(dialog.getByLabel('Your delivery fee ($)')).toHaveAttribute('step', '0.01');
    await dialog.getByLabel('I deliver it myself').uncheck();
    await expect(dialog.getByLabel('Your delivery fee ($)')).toHaveCount(0);

    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Description').fill('Hand-built from western red cedar.');
    await dialog.getByLabel('Price ($)').fill('12.5');
    await dialog.getByLabel('Stock').fill('5');
    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Home & Garden' }).click();
    await dialog.getByLabel('Offer pickup').check();

    // Three pictures through the uploader (once it has loaded, as for a person), then the last one
    // moved to the front.
    await expect(dialog.getByRole('button', { name: 'Add Images' })).toBeEnabled();
    await dialog.getByTestId('input-product-images').setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: makePng(16, [200, 40, 40]) },
      { name: 'green.png', mimeType: 'image/png', buffer: makePng(16, [40, 160, 60]) },
      { name: 'blue.png', mimeType: 'image/png', buffer: makePng(16, [40, 60, 200]) },
    ]);
    await expect(dialog.getByTestId('image-item-2')).toBeVisible();
    await expect(dialog.getByTestId('text-image-count')).toContainText('3 of 10 images');
    const uploaded = await shownImageOrder(page);
    expect(uploaded).toHaveLength(3);
    await dialog.getByRole('button', { name: 'Move image 3 of 3 earlier' }).click();
    await dialog.getByRole('button', { name: 'Move image 2 of 3 earlier' }).click();
    const reordered = [uploaded[2], uploaded[0], uploaded[1]];
    expect(await shownImageOrder(page)).toEqual(reordered);
    await expect(dialog.getByTestId('image-item-0').getByTestId('badge-primary-image')).toBeVisible();
    await expectNoAccessibilityViolations(page);

    await dialog.getByRole('button', { name: 'Create Listing' }).click();
    await expect(page.getByText('Listing created', { exact: true })).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const [product] = await getJson<SellerProductRow[]>(page.request, '/api/seller/products');
    if (!product) throw new Error('the listing was not saved');
    expect(product).toMatchObject({ name, available: true, imageUrl: reordered[0], imageUrls: reordered });
    const row = listingRow(page, name);
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
    await expect(row.getByText('$12.50', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Active Listings', exact: true })).toContainText('1');
    await expect(page.getByRole('region', { name: 'Total Stock', exact: true })).toContainText('5');

    // A visitor finds it on the home page, with the picture moved to the front.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    const card = visitor.getByTestId(`card-product-${product.id}`);
    await card.scrollIntoViewIfNeeded();
    await expect(card).toContainText(name);
    await expect(card).toContainText('$12.50');
    await expect(card.locator('img').first()).toHaveAttribute('src', reordered[0] ?? '');
    // The card asks for the resized copy its width needs, made after the picture was attached
    // (docs/decisions/0014-first-load.md, Resized copies): 300 CSS px at this window's pixel ratio 1.
    await expect
      .poll(() =>
        card
          .locator('img')
          .first()
          .evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.currentSrc : '')),
      )
      .toBe(new URL(`${reordered[0] ?? ''}/w320`, visitor.url()).href);
    await visitorContext.close();

    // A buyer orders it for pickup and pays.
    const buyerContext = await browser.newContext();
    const buyer = await buyerContext.newPage();
    await signUpFresh(buyer);
    await buyer.goto(`/products/${product.id}`);
    await expect(buyer.getByRole('heading', { level: 1, name })).toBeVisible();
    await buyer.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(cartButton(buyer)).toHaveText('1');
    await buyer.goto('/checkout');
    await buyer.getByRole('radio', { name: /Pickup/ }).click();
    const seller = await getJson<{ id: string }>(page.request, '/api/auth/user');
    await choosePickupTime(
      buyer,
      buyer.getByTestId(`pickup-seller-${seller.id}`),
      await slotToPay(buyer.request, seller.id),
    );
    const proceed = buyer.getByRole('button', { name: 'Proceed to Payment' });
    await expect(proceed).toBeEnabled();
    await proceed.click();
    await expect(buyer).toHaveURL(/\/payment$/);
    await payWithTestCard(buyer);
    await expect(buyer).toHaveURL(/\/buyer\/orders\?order=/);
    await buyerContext.close();

    // The seller sees the order, makes it ready, hands it over, and the earnings follow.
    await page.reload();
    const [order] = await getJson<{ id: string; orderNumber: string; sellerEarnings: string }[]>(
      page.request,
      '/api/orders?as=seller',
    );
    if (!order) throw new Error('the seller has no order');
    expect(order.sellerEarnings).toBe('11.25');
    const details = orderDetails(page, order);
    await expect(details.getByRole('heading', { name: order.orderNumber })).toBeVisible();
    await expect(titleBadge(details, 'Pending')).toBeVisible();
    await expect(details.getByTestId('button-cancel-order')).toBeVisible();
    await scrollToSection(page, 'My Products');
    await expect(page.getByRole('region', { name: 'Total Stock', exact: true })).toContainText('4');
    await scrollToSection(page, 'Earnings');

    await details.getByRole('button', { name: 'Mark Ready for Pickup' }).click();
    await expect(titleBadge(details, 'Ready for Pickup')).toBeVisible();
    await expect(timelineStep(details, 'Ready for Pickup')).toHaveAttribute('data-done', 'true');
    // Only a pending order can be cancelled.
    await expect(details.getByTestId('button-cancel-order')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Total Earnings', exact: true })).toContainText('$0.00');

    await details.getByRole('button', { name: 'Mark Picked Up' }).click();
    await expect(titleBadge(details, 'Completed')).toBeVisible();
    await expect(timelineStep(details, 'Picked Up')).toHaveAttribute('data-done', 'true');
    await expect(details.getByRole('button', { name: /^Mark / })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Total Earnings', exact: true })).toContainText('$11.25');
    await expect(page.getByRole('region', { name: 'Orders Completed', exact: true })).toContainText('1');
    await expect(page.getByTestId('text-12-week-total')).toHaveText('$11.25');
    // The chart is drawn once its card is scrolled near (docs/decisions/0014-first-load.md).
    await page.getByTestId('card-weekly-earnings').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('chart-weekly-earnings').locator('canvas')).toBeVisible();
    await expectNoAccessibilityViolations(page);
  });

  test('cancels a listing only after asking, and it stays cancelled', async ({ page }) => {
    await signUpFresh(page, 'seller');
    const created = await page.request.post('/api/products', {
      data: { name: 'Old Garden Bench', price: '80.00', category: 'Furniture', stock: 2 },
    });
    expect(created.status(), await created.text()).toBe(201);
    await page.goto('/seller/dashboard');
    await scrollToSection(page, 'My Products');
    const row = listingRow(page, 'Old Garden Bench');
    await expect(row.getByText('Active', { exact: true })).toBeVisible();

    await row.getByRole('button', { name: 'Cancel Old Garden Bench' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel this listing?' });
    await expect(confirm).toContainText('Old Garden Bench will no longer be for sale');
    await confirm.getByRole('button', { name: 'Keep Listing' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(row.getByText('Active', { exact: true })).toBeVisible();

    await row.getByRole('button', { name: 'Cancel Old Garden Bench' }).click();
    await confirm.getByRole('button', { name: 'Cancel Listing' }).click();
    await expect(page.getByText('Listing cancelled', { exact: true })).toBeVisible();
    await expect(row.getByText('Cancelled', { exact: true })).toBeVisible();
    // Cancelling cannot be undone: the row offers nothing more.
    await expect(row.getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Active Listings', exact: true })).toContainText('0');
    await expect(page.getByRole('region', { name: 'Total Products', exact: true })).toContainText('1');
    await page.reload();
    await scrollToSection(page, 'My Products');
    await expect(listingRow(page, 'Old Garden Bench').getByText('Cancelled', { exact: true })).toBeVisible();
  });
});
