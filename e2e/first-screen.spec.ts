import { test, expect } from './support/fixtures';
import { cents, money } from './support/money';

/**
 * The first screen comes in the HTML (docs/decisions/0014-first-load.md, The first screen in the
 * HTML): a visitor without JavaScript still reads the landing and a product, and follows the
 * featured products' links; with JavaScript the page hydrates without a console error.
 */

interface Row {
  id: string;
  name: string;
  price: string;
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a visitor reads the landing, follows a featured product and reads its name and price', async ({
    page,
  }) => {
    const response = await page.request.get('/api/products?limit=1');
    const [newest] = (await response.json()) as Row[];
    if (!newest) throw new Error('the demo catalog is empty');

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fast & Reliable Delivery Marketplace');
    const card = page.getByTestId(`link-product-${newest.id}`);
    await expect(card).toBeVisible();
    await card.click();

    await expect(page).toHaveURL(new RegExp(`/products/${newest.id}$`));
    await expect(page.getByTestId('text-product-name')).toHaveText(newest.name);
    await expect(page.getByTestId('text-product-price')).toHaveText(money(cents(newest.price)));
  });
});

test('the server-rendered landing and product page hydrate and respond to a click', async ({ page }) => {
  const response = await page.request.get('/api/products?limit=1');
  const [newest] = (await response.json()) as Row[];
  if (!newest) throw new Error('the demo catalog is empty');

  await page.goto(`/products/${newest.id}`);
  await expect(page.getByTestId('text-product-name')).toHaveText(newest.name);
  // The cart's button works once hydrated: adding the product counts it in the header.
  await page.getByTestId('button-add-to-cart').click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
});
