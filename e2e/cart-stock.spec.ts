import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { test, expect, signInAs, signUpFresh, DEMO } from './support/fixtures';
import { someoneElse } from './support/people';
import { cartButton } from './support/header';

/**
 * A stock-aware cart, and sellers who cannot buy their own products (docs/rules/screens-buyer.md, Cart and
 * checkout screens; docs/rules/catalog-and-orders.md, Checkout and orders).
 */

interface Row {
  id: string;
  name: string;
  price: string;
  available: boolean;
  stock: number;
  sellerId: string;
  sellerName: string;
  category: string;
}

async function catalog(request: APIRequestContext, search?: string): Promise<Row[]> {
  const query = search === undefined ? '' : `&search=${encodeURIComponent(search)}`;
  const response = await request.get(`/api/products?limit=100${query}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Row[];
}

/**
 * A product with little stock, listed for this test by a seller of its own: another test's product
 * with that stock may be bought or cancelled meanwhile, and nobody else buys this one.
 */
async function scarceProduct(browser: Browser): Promise<Row> {
  const seller = await someoneElse(browser, 'seller');
  try {
    const address = await seller.request.post('/api/addresses', {
      data: { addressLine1: '20 N State St', city: 'Chicago', state: 'IL', zipCode: '60602' },
    });
    expect(address.status(), await address.text()).toBe(201);
    const name = `Scarce Stool ${Date.now()} ${test.info().workerIndex}`;
    const created = await seller.request.post('/api/products', {
      data: { name, price: '30.00', category: 'Furniture', stock: 2 },
    });
    expect(created.status(), await created.text()).toBe(201);
    // As the catalog lists it, what the cart keeps of a product.
    const [row] = await catalog(seller.request, name);
    if (!row || row.name !== name) throw new Error(`${name} is not in the catalog`);
    return row;
  } finally {
    await seller.context.close();
  }
}

/** Puts lines in the cart of this browser, as a visit before this one left them. */
async function leaveInCart(page: Page, lines: (Row & { quantity: number; stock: number })[]): Promise<void> {
  await page.goto('/support');
  await page.evaluate((items) => localStorage.setItem('cart', JSON.stringify(items)), lines);
}

test.describe('the cart knows the stock', () => {
  test('the + button stops at the stock, with a message', async ({ page, browser }) => {
    await signUpFresh(page);
    const product = await scarceProduct(browser);

    await page.goto(`/products/${product.id}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(cartButton(page)).toHaveText('1');
    await cartButton(page).click();
    const sheet = page.getByRole('dialog', { name: 'Shopping Cart' });
    const plus = sheet.getByRole('button', { name: `Increase quantity of ${product.name}` });
    for (let quantity = 1; quantity < product.stock; quantity += 1) {
      await expect(plus).toBeEnabled();
      await plus.click();
    }
    const line = sheet.getByRole('listitem', { name: product.name, exact: true });
    await expect(line.getByRole('group', { name: `Quantity of ${product.name}` })).toHaveText(
      String(product.stock),
    );
    await expect(plus).toBeDisabled();
    await expect(line.getByText(`Only ${product.stock} in stock`, { exact: true })).toBeVisible();
    await expect(cartButton(page)).toHaveText(String(product.stock));

    // The product page agrees: the whole stock is in the cart.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
    await expect(page.getByTestId('text-all-in-cart')).toHaveText(
      `All ${product.stock} in stock are in your cart.`,
    );
  });

  test('opening the cart takes the current stock from the catalog', async ({ page, browser }) => {
    await signUpFresh(page);
    const product = await scarceProduct(browser);
    // A cart from an earlier visit that believed there were 99, holding 5.
    await leaveInCart(page, [{ ...product, stock: 99, quantity: 5 }]);

    await page.goto('/cart');
    const line = page.getByRole('listitem', { name: product.name, exact: true });
    await expect(line.getByText(`Only ${product.stock} in stock`, { exact: true })).toBeVisible();
    const plus = line.getByRole('button', { name: `Increase quantity of ${product.name}` });
    await expect(plus).toBeDisabled();
    // Lowering is always possible, down to the stock and below.
    await line.getByRole('button', { name: `Decrease quantity of ${product.name}` }).click();
    await expect(line.getByRole('group', { name: `Quantity of ${product.name}` })).toHaveText('4');
  });
});

test.describe('a seller and their own products', () => {
  test('cannot buy them: Add is disabled, the checkout names the problem, and the server answers 409', async ({
    page,
  }) => {
    await signInAs(page, DEMO.seller);
    const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
    const own = (await catalog(page.request)).find(
      (row) => row.sellerId === me.id && row.available && row.stock > 0,
    );
    if (!own) throw new Error('the demo seller has no product in stock');

    // Their own product page: Add to Cart is disabled, and says why.
    await page.goto(`/products/${own.id}`);
    await expect(page.getByRole('heading', { level: 1, name: own.name })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
    await expect(page.getByTestId('text-own-product')).toHaveText(
      'This is your product: buyers see Add to Cart here.',
    );
    await expect(page.getByText('Please log in to message the seller')).toHaveCount(0);

    // Their own card in the catalog: Add is disabled too.
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search products' }).fill(own.name);
    const card = page.getByTestId(`card-product-${own.id}`);
    await expect(card.getByTestId(`badge-own-product-${own.id}`)).toHaveText('Your product');
    await expect(card.getByRole('button', { name: `${own.name} is your product` })).toBeDisabled();

    // Put in the cart before signing in: the cart and the checkout say it cannot be bought.
    await leaveInCart(page, [{ ...own, quantity: 1 }]);
    await page.goto('/cart');
    await expect(
      page
        .getByRole('listitem', { name: own.name, exact: true })
        .getByText('Your own product: remove it to check out', { exact: true }),
    ).toBeVisible();
    await page.goto('/checkout');
    await expect(page.getByTestId('checkout-problems')).toContainText(
      `You cannot buy your own product: ${own.name}`,
    );
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeDisabled();

    // And the server refuses to take the payment.
    const addresses = (await (await page.request.get('/api/addresses')).json()) as { id: string }[];
    const paid = await page.request.post('/api/payments', {
      data: { items: [{ productId: own.id, quantity: 1 }], deliveryAddressId: addresses[0]?.id },
    });
    expect(paid.status()).toBe(409);
    expect(await paid.json()).toMatchObject({ message: `You cannot buy your own product: ${own.name}` });
  });
});
