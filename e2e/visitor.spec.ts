import type { APIRequestContext } from '@playwright/test';
import { test, expect, mailedLink } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { demoProducts } from './support/demo-catalog';
import { cents, money } from './support/money';
import { cartButton, logOutButton, signInButton } from './support/header';

/**
 * The buyer's side as a stranger meets it: a shared product link opens the product, the
 * cart fills without an account, and checking out asks to sign in and comes back to checkout with
 * the cart intact (docs/rules/screens-buyer.md, Routes and headers).
 */

interface Row {
  id: string;
  name: string;
  price: string;
  available: boolean;
  stock: number;
  sellerId: string;
  sellerName: string;
  imageUrl: string | null;
}

async function productToShare(request: APIRequestContext): Promise<Row> {
  // A demo seller's, with a picture for the link preview (the products other tests list have none,
  // and may be hidden or their seller suspended meanwhile), and enough stock that the buyer
  // journeys running beside this one cannot sell it out.
  const rows = await demoProducts<Row>(request);
  const row = rows.find((candidate) => candidate.imageUrl !== null && candidate.stock >= 4);
  if (!row) throw new Error('the demo catalog has no product to share');
  return row;
}

test.describe('a visitor (docs/rules/screens-buyer.md, Routes and headers)', () => {
  test('opens a shared product link, adds it to the cart, is asked to sign in at checkout, and lands back in checkout with the cart', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const product = await productToShare(page.request);

    // The shared link: the product, not the 404.
    await page.goto(`/products/${product.id}`);
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    await expect(page.getByText('Did you forget to add the page to the router?')).toHaveCount(0);
    await expect(page.getByTestId('text-product-price')).toHaveText(money(cents(product.price)));
    await expect(page.getByText('Please log in to message the seller')).toBeVisible();
    await expect(signInButton(page)).toBeVisible();
    await expectNoAccessibilityViolations(page);

    // Into the cart on this device; the toast says so, and opening the sheet puts it away.
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(cartButton(page)).toHaveText('1');
    await expect(page.getByText('Added to cart', { exact: true })).toBeVisible();
    await cartButton(page).click();
    const sheet = page.getByRole('dialog', { name: 'Shopping Cart' });
    await expect(sheet.getByRole('listitem', { name: product.name, exact: true })).toBeVisible();
    // At once, not when its 5 seconds are up.
    await expect(page.getByText('Added to cart', { exact: true })).toBeHidden({ timeout: 1_500 });
    // Nothing covers the sheet's own buttons: they take the click.
    await sheet.getByRole('button', { name: 'Close' }).click({ trial: true });
    await sheet.getByRole('link', { name: 'Proceed to Checkout' }).click();

    // Checkout asks to sign in, and promises to come back.
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to check out' })).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await page.getByTestId('button-sign-in-to-continue').click();
    await expect(page).toHaveURL(/\/api\/login\?returnTo=%2Fcheckout/);

    // A new account, made on the sign-in page.
    await page.getByTestId('link-create-account').click();
    const email = `visitor-${Date.now()}-${process.pid}@example.com`;
    await page.getByLabel('First name').fill('Vera');
    await page.getByLabel('Last name').fill('Visitor');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('visitor password');
    await page.getByTestId('button-submit').click();

    // The address is confirmed by the mailed link, which signs in and comes back to checkout
    // (docs/decisions/0019-reaching-people.md, Accounts); the cart waits in this browser.
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await page.goto(await mailedLink(email, '/api/verify-email'));

    // Back in checkout, signed in, with the same cart.
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    await expect(cartButton(page)).toHaveText('1');
    await expect(page.getByTestId('text-subtotal')).toHaveText(money(cents(product.price)));
    await expect(logOutButton(page)).toBeVisible();
    const cart = (await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'))) as {
      id: string;
      quantity: number;
    }[];
    expect(cart).toMatchObject([{ id: product.id, quantity: 1 }]);
  });

  test('is led from the landing into the catalog, with search and categories', async ({ page }) => {
    await page.goto('/');
    const featured = page.getByTestId('section-featured-products');
    await featured.scrollIntoViewIfNeeded();
    await expect(featured.getByRole('heading', { name: 'Featured Products' })).toBeVisible();
    await expect(featured.locator('[data-testid^="card-product-"]').first()).toBeVisible();
    await featured.getByRole('link', { name: 'Browse all products' }).click();

    await expect(page).toHaveURL(/\/products$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Browse products' })).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Search products' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'All', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByText('Sign in to see how far each seller is')).toBeVisible();
    await expect(page.locator('[data-testid^="card-product-"]').first()).toBeVisible();
    await expectNoAccessibilityViolations(page);
  });

  test("gets a product's title, description and picture in the page itself, for link previews", async ({
    page,
  }) => {
    const product = await productToShare(page.request);
    const response = await page.request.get(`/products/${product.id}`);
    expect(response.status()).toBe(200);
    const html = await response.text();
    const meta = (key: string) =>
      new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];
    const escaped = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    expect(html).toContain(`<title>${escaped(product.name)} · Local Delivery Marketplace</title>`);
    expect(meta('og:title')).toBe(`${escaped(product.name)} · Local Delivery Marketplace`);
    expect(meta('og:description')).toContain(
      `${money(cents(product.price))} from ${escaped(product.sellerName)}.`,
    );
    expect(meta('og:image')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/objects\//);
    expect(meta('marketplace-time-zone')).toBe('America/Chicago');
  });
});
