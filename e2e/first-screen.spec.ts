import type { Page } from '@playwright/test';
import { DEMO, expect, signInAs, signUpFresh, test } from './support/fixtures';
import { demoProducts } from './support/demo-catalog';
import { cents, money } from './support/money';
import { someoneElse } from './support/people';
import { cartButton, logOutButton } from './support/header';

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
    browser,
  }) => {
    // A product of its own, now the newest, so in the featured strip: the newest that other tests
    // list may be sold out, hidden or its seller suspended before the visitor follows it.
    const seller = await someoneElse(browser, 'seller');
    const created = await seller.request.post('/api/products', {
      data: { name: `First Screen Stool ${Date.now()}`, price: '34.50', category: 'Furniture', stock: 5 },
    });
    expect(created.status(), await created.text()).toBe(201);
    const newest = (await created.json()) as Row;
    await seller.context.close();

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fast & Reliable Delivery Marketplace');
    const card = page.getByTestId(`link-product-${newest.id}`);
    await expect(card).toBeVisible();
    await card.click();

    await expect(page).toHaveURL(new RegExp(`/products/${newest.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(newest.name);
    await expect(page.getByTestId('text-product-price')).toHaveText(money(cents(newest.price)));
  });
});

test('the server-rendered landing and product page hydrate and respond to a click', async ({ page }) => {
  // A demo product with stock to spare: the newest may be another test's, sold out or hidden.
  const [product] = (
    await demoProducts<Row & { available: boolean; sellerName: string; stock: number }>(page.request)
  ).filter((row) => row.stock >= 5);
  if (!product) throw new Error('the demo catalog has no product in stock');

  await page.goto(`/products/${product.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
  // The cart's button works once hydrated: adding the product counts it in the header.
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(cartButton(page)).toHaveText('1');
});

test("the header's controls are hydrated once, not drawn again when their tooltips arrive", async ({
  page,
}) => {
  // A press on a control being replaced is lost (components/ui/tooltip.tsx): the page records every
  // header control taken out of it while it loads, known by how its name begins.
  const watched = ['Profile: ', 'My addresses', 'Shopping cart, ', 'Switch to ', 'Log out'];
  await page.addInitScript((nameStarts: string[]) => {
    const removed: string[] = [];
    (window as unknown as { removedControls: string[] }).removedControls = removed;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (!(node instanceof Element)) continue;
          for (const control of [node, ...node.querySelectorAll('a[aria-label], button[aria-label]')]) {
            const name = control.getAttribute('aria-label');
            if (name && nameStarts.some((start) => name.startsWith(start))) removed.push(name);
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  }, watched);
  await signUpFresh(page);

  await page.goto('/');
  const logout = logOutButton(page);
  await expect(logout).toBeVisible();
  // Once the page has hydrated (it takes presses again), the tooltip shows when the pointer comes
  // onto the button: its code has arrived. A pointer already resting there sends no event, so it
  // comes from elsewhere each time.
  await expect(page.locator('[data-before-hydration]')).toHaveCount(0);
  await expect(async () => {
    await page.mouse.move(0, 0);
    await logout.hover();
    await expect(page.getByRole('tooltip', { name: 'Log out' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const header = page.getByRole('banner');
  for (const control of [
    header.getByRole('link', { name: /^Profile: / }),
    header.getByRole('link', { name: 'My addresses' }),
    cartButton(page),
    header.getByRole('button', { name: /^Switch to / }),
    logout,
  ])
    await expect(control).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { removedControls: string[] }).removedControls),
  ).toEqual([]);
});

/**
 * What is typed into the server's HTML while the page's code is still on its way is kept, and Enter
 * pressed meanwhile is answered once the page has hydrated (docs/decisions/0014-first-load.md,
 * Typing before hydration): on a slow phone that is the first second or two of every visit.
 */
test.describe('typing before the page has hydrated', () => {
  /** Holds the answers of the scripts whose address `isHeld` picks until `release` is called. */
  async function holdScripts(page: Page, isHeld: (url: string) => boolean): Promise<() => void> {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route) => {
      if (isHeld(route.request().url())) await released;
      await route.continue();
    });
    return release;
  }

  test("a buyer's search typed before any of the page's code has run filters the products", async ({
    page,
  }) => {
    await signUpFresh(page);
    // Two demo products well inside the first page of 24, past the newest that other tests add.
    const rows = (await (await page.request.get('/api/products?limit=12')).json()) as (Row & {
      available: boolean;
      stock: number;
    })[];
    const [wanted, other] = rows.slice(4).filter((row) => row.available && row.stock >= 5);
    if (!wanted || !other) throw new Error('the demo catalog has too few products in stock');
    const release = await holdScripts(page, () => true);

    await page.goto('/', { waitUntil: 'commit' });
    const search = page.getByRole('searchbox', { name: 'Search products' });
    await expect(page.getByTestId(`card-product-${other.id}`)).toBeVisible();
    await search.fill(wanted.name);
    release();

    await expect(page.getByTestId(`card-product-${other.id}`)).toBeHidden();
    await expect(page.getByTestId(`card-product-${wanted.id}`)).toBeVisible();
    await expect(search).toHaveValue(wanted.name);
  });

  test("an admin's user search typed while the dashboard hydrates, tab after page, finds the user", async ({
    page,
    browser,
  }) => {
    // React hydrates the Users tab's boundary after the rest of the page: on a slow phone a search
    // typed in between reached a box React did not see yet, and the list never filtered
    // (src/web/components/suspense.tsx). The page's processor runs four times slower, as a phone's.
    const someone = await someoneElse(browser);
    await someone.context.close();
    await signInAs(page, DEMO.admin);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const searched = page.waitForResponse(
      (answer) =>
        answer.url().includes('/api/admin/users?') &&
        new URL(answer.url()).searchParams.get('search') === someone.email,
    );

    await page.goto('/admin', { waitUntil: 'commit' });
    const search = page.getByLabel('Search users');
    await search.fill(someone.email);

    await searched;
    const rows = page.getByTestId('list-rows');
    await expect(rows).toHaveAttribute('aria-busy', 'false');
    await expect(rows.getByRole('row', { name: someone.email })).toBeVisible();
    await expect(search).toHaveValue(someone.email);
  });

  test('a question typed and sent with Enter while the product page hydrates is sent once', async ({
    page,
  }) => {
    await signUpFresh(page);
    // A demo product, past the newest that other tests add.
    const rows = (await (await page.request.get('/api/products?limit=12')).json()) as Row[];
    const product = rows[4];
    if (!product) throw new Error('the demo catalog has too few products');
    // The page's first script runs; the product page's own code is held, so it cannot hydrate.
    const html = await (await page.request.get(`/products/${product.id}`)).text();
    const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    if (!entry) throw new Error('the page names no script');
    const release = await holdScripts(page, (url) => !url.endsWith(entry));

    await page.goto(`/products/${product.id}`, { waitUntil: 'commit' });
    // The first script has run: the page takes no clicks until it has hydrated (main.tsx).
    const card = page.getByRole('region', { name: 'Message the seller' });
    const box = card.getByRole('textbox', { name: 'Message to the seller' });
    await expect(page.locator('[data-before-hydration]')).toHaveCount(1);
    // The page still scrolls under the cover.
    await page.mouse.move(100, 200);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await box.scrollIntoViewIfNeeded();
    const corner = await box.boundingBox();
    if (!corner) throw new Error('the message box is not on screen');
    // A press there lands on the cover, not on the box.
    const pressed = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x + 4, y + 4)?.hasAttribute('data-before-hydration'),
      corner,
    );
    expect(pressed).toBe(true);
    const question = `Is the ${product.name} still available this week? (${Date.now()})`;
    await box.fill(question);
    await box.press('Enter');
    release();

    const thread = card.getByRole('log', { name: 'Messages' });
    await expect(thread).toContainText(question);
    await expect(box).toHaveValue('');
    await expect(thread.getByText(question, { exact: true })).toHaveCount(1);
  });
});
