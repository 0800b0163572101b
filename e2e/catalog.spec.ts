import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, signInAs, signUpFresh, DEMO } from './support/fixtures';
import { cents, money } from './support/money';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { cartButton } from './support/header';

/** What the tests need to know of a list row; the demo catalog decides the rest. */
interface Row {
  id: string;
  name: string;
  category: string;
  available: boolean;
  stock: number;
  distance: number | null;
}

interface Detail extends Row {
  price: string;
  imageUrl: string | null;
  images: { imageUrl: string }[];
}

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  const body: T = await response.json();
  return body;
}

const grid = (page: Page) => page.getByTestId('product-grid');
const cards = (page: Page) => grid(page).locator('[data-testid^="card-product-"]');

/** The ids of the cards on screen, in order. */
async function cardIds(page: Page): Promise<string[]> {
  const ids = await cards(page).evaluateAll((elements) =>
    elements.map((element) => element.getAttribute('data-testid')?.replace('card-product-', '') ?? ''),
  );
  return ids;
}

test.describe('catalog: home and product pages (docs/rules/screens-buyer.md, Catalog screens)', () => {
  test.beforeEach(async ({ page }) => {
    await signInAs(page, DEMO.buyer);
  });

  test('search and a category chip filter the grid; Load more reaches further', async ({ page }) => {
    // Seven reads of the catalog, each waited for: it ran past 30 s once on a loaded machine.
    test.slow();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Featured Products' })).toBeVisible();
    await expect(cards(page)).toHaveCount(24);

    // Load more: the next page of the same list.
    const firstPage = await cardIds(page);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(async () => (await cardIds(page)).length).toBeGreaterThan(24);
    expect((await cardIds(page)).slice(0, 24)).toEqual(firstPage);

    // Search: a case-insensitive part of a name, done by the server.
    const all = await getJson<Row[]>(page.request, '/api/products?limit=100');
    // The oldest of the newest hundred: a demo product, not one another test just listed (and may hide).
    const target = all.findLast((row) => row.name.split(' ').length >= 2);
    if (!target) throw new Error('the demo catalog has no product to search for');
    const term = target.name.split(' ').slice(-2).join(' ').toLowerCase();
    // The page's own answer (see the category chip below), checked to hold only matching names.
    const answer = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/products' && url.searchParams.get('search') === term;
    });
    await page.getByRole('searchbox', { name: 'Search products' }).fill(term);
    const expected = (await (await answer).json()) as Row[];
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.every((row) => row.name.toLowerCase().includes(term))).toBe(true);
    await expect.poll(() => cardIds(page)).toEqual(expected.map((row) => row.id));
    for (const name of await grid(page).getByRole('heading', { level: 3 }).allTextContents()) {
      expect(name.toLowerCase()).toContain(term);
    }
    // By its id: other tests against this server may list products of the same name.
    await expect(grid(page).getByTestId(`link-product-${target.id}`)).toHaveText(target.name);

    // Nothing matches: the empty text.
    await page.getByRole('searchbox', { name: 'Search products' }).fill('zzzz no such product zzzz');
    await expect(grid(page).getByText('No products found')).toBeVisible();

    // A category chip: exactly that category's products.
    // Compared with the page's own answer: other tests list Furniture meanwhile, and a list read
    // again here could hold a product the page, which does not read it again, never saw.
    await page.getByRole('searchbox', { name: 'Search products' }).fill('');
    const chipAnswer = page.waitForResponse((response) => {
      const { pathname, searchParams } = new URL(response.url());
      return (
        pathname === '/api/products' &&
        searchParams.get('category') === 'Furniture' &&
        !searchParams.get('search')
      );
    });
    await page.getByRole('button', { name: 'Furniture', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Furniture', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const furniture = (await (await chipAnswer).json()) as Row[];
    expect(furniture.length).toBeGreaterThan(0);
    expect(furniture.every((row) => row.category === 'Furniture')).toBe(true);
    await expect.poll(() => cardIds(page)).toEqual(furniture.map((row) => row.id));

    // Back to All: the pages read before come back from the cache.
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect.poll(async () => (await cardIds(page)).slice(0, 24)).toEqual(firstPage);
    await expectNoAccessibilityViolations(page);
  });

  test('opens a product from its card, shows its detail and gallery, and adds it to the cart', async ({
    page,
  }) => {
    // A product that can be bought and has extra pictures.
    const rows = await getJson<Row[]>(page.request, '/api/products?limit=100');
    let product: Detail | undefined;
    for (const row of rows.filter((r) => r.available && r.stock > 0)) {
      const detail = await getJson<Detail>(page.request, `/api/products/${row.id}`);
      if (detail.imageUrl && detail.images.length > 0) {
        product = detail;
        break;
      }
    }
    if (!product) throw new Error('the demo catalog has no product with extra images');

    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search products' }).fill(product.name);
    const card = page.getByTestId(`card-product-${product.id}`);
    await expect(card).toBeVisible();
    await card.getByRole('link', { name: product.name, exact: true }).click();

    await expect(page).toHaveURL(`/products/${product.id}`);
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    await expect(page.getByTestId('text-product-price')).toHaveText(money(cents(product.price)));
    await expect(page.getByTestId('badge-available')).toHaveText('Available');
    await expect(page.getByTestId('text-product-stock')).toHaveText(/^\d+ in stock$/);
    // The seller's real rating as a seller and its count (conversations.spec.ts adds reviews meanwhile).
    await expect(page.getByTestId('text-product-rating')).toHaveText(
      /^(No reviews yet|Seller rated \d\.\d \(\d+ reviews?\))$/,
    );
    await expect(page.getByRole('region', { name: 'Seller information' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Delivery and pickup' })).toBeVisible();

    // The gallery: the main picture first; a thumbnail shows its picture large.
    const main = page.getByTestId('product-main-image').locator('img');
    await expect(main).toHaveAttribute('src', product.imageUrl ?? '');
    await expect(main).toHaveJSProperty('complete', true);
    expect(await main.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // The whole picture shows: a 4:3 frame like the pictures, the picture contained in it, not cropped.
    const frame = await page.getByTestId('product-main-image').boundingBox();
    expect(frame && frame.width / frame.height).toBeCloseTo(4 / 3, 1);
    expect(await main.evaluate((img: HTMLImageElement) => getComputedStyle(img).objectFit)).toBe('contain');
    await expect(main).toHaveAttribute('width', '400');
    await expect(main).toHaveAttribute('height', '300');
    const count = 1 + product.images.length;
    const second = page.getByRole('button', { name: `Show image 2 of ${count}` });
    await second.click();
    await expect(second).toHaveAttribute('aria-current', 'true');
    await expect(main).toHaveAttribute('src', product.images[0]?.imageUrl ?? '');
    await expectNoAccessibilityViolations(page);

    // Add to Cart: the header's count follows.
    await expect(cartButton(page)).toHaveText('0');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(cartButton(page)).toHaveText('1');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(cartButton(page)).toHaveText('2');

    // Back returns to the grid with the search still there.
    await page.getByTestId('button-back').click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue(product.name);
    await expect(page.getByTestId(`card-product-${product.id}`)).toBeVisible();
  });

  test.describe('a product that does not exist', () => {
    // Chromium logs the 404 answer of GET /api/products/{id}: that is this test's point.
    test.use({ allowedConsoleErrors: [/status of 404 \(Not Found\)/] });

    test('shows "Product not found" with a Back to Home button', async ({ page }) => {
      await page.goto('/products/00000000-0000-4000-8000-000000000000');
      await expect(page.getByRole('heading', { level: 1, name: 'Product not found' })).toBeVisible();
      await expectNoAccessibilityViolations(page);
      await page.getByRole('link', { name: 'Back to Home' }).click();
      await expect(page).toHaveURL('/');
      await expect(page.getByRole('heading', { name: 'Featured Products' })).toBeVisible();
    });
  });

  test('the distance filter narrows the grid: 5 miles against any distance', async ({ page }) => {
    // A category with products within 5 miles of the buyer (fewer than a page) and farther ones.
    const categories = await getJson<{ name: string }[]>(page.request, '/api/categories');
    let chosen: { name: string; near: Row[]; any: Row[] } | undefined;
    for (const { name } of categories) {
      const category = encodeURIComponent(name);
      const any = await getJson<Row[]>(
        page.request,
        `/api/products/with-distance?category=${category}&limit=24`,
      );
      const near = await getJson<Row[]>(
        page.request,
        `/api/products/with-distance?maxDistance=5&category=${category}&limit=24`,
      );
      if (near.length > 0 && near.length < 24 && near.length < any.length) {
        chosen = { name, near, any };
        break;
      }
    }
    if (!chosen) throw new Error('no category has products both near the demo buyer and far from them');
    expect(chosen.near.every((row) => row.distance !== null && row.distance <= 5)).toBe(true);

    await page.goto('/');
    await page.getByRole('button', { name: chosen.name, exact: true }).click();
    await page.getByRole('switch', { name: 'Filter by distance' }).click();
    await expect(page.getByTestId('text-distance-value')).toHaveText('Any distance');
    await expect.poll(() => cardIds(page)).toEqual(chosen.any.map((row) => row.id));
    await expect(
      grid(page)
        .getByText(/^\d+\.\d miles away$/)
        .first(),
    ).toBeVisible();

    const slider = page.getByRole('slider', { name: 'Maximum distance' });
    await slider.fill('5');
    await expect(page.getByTestId('text-distance-value')).toHaveText('5 miles');
    await expect.poll(() => cardIds(page)).toEqual(chosen.near.map((row) => row.id));
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    for (const text of await grid(page)
      .getByText(/miles away$/)
      .allTextContents()) {
      expect(Number.parseFloat(text)).toBeLessThanOrEqual(5);
    }

    // 500 means any distance again.
    await slider.fill('500');
    await expect(page.getByTestId('text-distance-value')).toHaveText('Any distance');
    await expect.poll(() => cardIds(page)).toEqual(chosen.any.map((row) => row.id));
    await expectNoAccessibilityViolations(page);
  });
});

test('a buyer without an address is offered one instead of the distance filter', async ({ page }) => {
  await signUpFresh(page);
  await page.goto('/');
  await expect(page.getByText('Location not available')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Filter by distance' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Add an address' }).click();
  await expect(page).toHaveURL('/addresses');
});
