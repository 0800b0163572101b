import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { cartButton } from './support/header';

/**
 * Pictures of what a visitor sees on a phone (390 × 844), in both themes, for a person to look at:
 * `SHOTS_DIR=/tmp/shots npx playwright test e2e/screenshots.spec.ts`. Without SHOTS_DIR it is
 * skipped; the pictures are never committed.
 */
const shotsDir = process.env.SHOTS_DIR;

test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });

/**
 * Every picture on the page has loaded (or failed and shows its placeholder); a lazy one out of
 * sight (further along the featured row) is not waited for.
 */
async function imagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.images].every((image) => image.complete || image.loading === 'lazy'),
  );
}

/** The whole page, and the same cut into screen-high parts (name-1.png, ...) that are easy to look at. */
async function shoot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let part = 0; part * 844 < height; part += 1) {
    await page.screenshot({
      path: path.join(shotsDir, `${name}-${part + 1}.png`),
      fullPage: true,
      clip: { x: 0, y: part * 844, width: 390, height: Math.min(844, height - part * 844) },
    });
  }
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.skip(!shotsDir, 'set SHOTS_DIR to take the pictures');
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
    });

    test('the landing', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // The featured strip loads when the page scrolls near it.
      await page.getByTestId('section-featured-products').scrollIntoViewIfNeeded();
      await expect(page.locator('[data-testid^="card-product-"]').first()).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      await imagesLoaded(page);
      await shoot(page, `landing-${theme}`);
    });

    test("a visitor's product page", async ({ page }) => {
      const rows = (await (await page.request.get('/api/products?limit=100')).json()) as {
        id: string;
        available: boolean;
        stock: number;
      }[];
      const product = rows.find((row) => row.available && row.stock > 0);
      if (!product) throw new Error('no product');
      await page.goto(`/products/${product.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await imagesLoaded(page);
      await shoot(page, `product-${theme}`);
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await cartButton(page).click();
      await expect(page.getByRole('dialog', { name: 'Shopping Cart' })).toBeVisible();
      await shoot(page, `cart-sheet-${theme}`);
    });
  });
}
