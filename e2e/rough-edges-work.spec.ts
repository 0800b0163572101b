import type { Page } from '@playwright/test';
import { test, expect, DEMO, signInAs, signUpFresh } from './support/fixtures';
import { approvedDriver, offerIn } from './support/drivers';
import { getJson, someoneElse } from './support/people';
import { makePng } from './support/png';
import { payByCard } from './support/checkout';

/**
 * Rough edges of each role's working screens, as a day of use in Chromium found them
 * (docs/rules/screens-shared.md, Client behaviour; docs/rules/screens-work.md, Driver dashboard; Seller
 * screens; docs/rules/screens-work.md, Admin screens).
 */

// Chromium logs the refused calls of a session that ended.
test.use({ allowedConsoleErrors: [/status of 401 \(Unauthorized\)/] });

test('a driver whose session ended is told they are logged out when Accept is refused, not that the orders failed', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const driver = await approvedDriver(browser);
  const { order, buyer } = await offerIn(browser, { productName: 'Maple Dresser' });
  try {
    const page = driver.page;
    await page.goto('/driver/dashboard');
    const accept = page.getByTestId(`button-accept-${order.id}`);
    await expect(accept).toBeVisible();
    // The session's cookie expires while the page stays open: the page learns it from its next call.
    await driver.context.clearCookies();

    // Every notice the page shows, as it shows it (the page signs in again 500 ms after the first).
    const shown: string[] = [];
    await page.exposeFunction('__noticeShown', (text: string) => shown.push(text));
    await page.evaluate(() => {
      const report = (window as unknown as { __noticeShown: (text: string) => void }).__noticeShown;
      const seen = new Set<string>();
      new MutationObserver(() => {
        for (const notice of document.querySelectorAll('[aria-label^="Notifications"] li')) {
          const text = notice.textContent ?? '';
          if (text && !seen.has(text)) {
            seen.add(text);
            report(text);
          }
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await accept.click();
    await page.waitForURL(/\/api\/login/);
    expect(shown.join(' | ')).toContain('You are logged out. Logging in again...');
    expect(shown.join(' | ')).not.toContain('Failed to fetch orders');
  } finally {
    await buyer.context.close();
    await driver.context.close();
  }
});

/**
 * The page as a person sees it once it has come and been scrolled through (parts below the first
 * screen are drawn when scrolled near: docs/decisions/0014-first-load.md): its heading there and
 * nothing left loading.
 */
async function settled(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // A screen further down each time, as a user scrolls, and back to what is still loading (a part
  // whose answers came after the window had passed it), until nothing is left loading.
  const loading = page.getByText(/^Loading [^.]*\.\.\.$/);
  await expect(async () => {
    await page.evaluate(() => window.scrollBy(0, window.innerHeight));
    if ((await loading.count()) > 0)
      await loading
        .first()
        .scrollIntoViewIfNeeded({ timeout: 1_000 })
        .catch(() => undefined);
    await expect(loading).toHaveCount(0, { timeout: 1_000 });
  }).toPass();
  await expect(page.getByText(/^Searching [^.]*\.\.\.$/)).toHaveCount(0);
}

/** Each path whose page is wider than the screen, with its width: none, on a 360 px phone. */
async function widerThanThePhone(page: Page, paths: readonly string[]): Promise<string[]> {
  const wider: string[] = [];
  for (const path of paths) {
    await settled(page, path);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 360) wider.push(`${path}: ${width} px`);
  }
  return wider;
}

const ADMIN_TABS = [
  'users',
  'orders',
  'products',
  'categories',
  'commission',
  'drivers',
  'refunds',
  'disputes',
  'payouts',
  'mail',
  'jobs',
  'activity',
] as const;

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });

  test('no main screen of a buyer, seller or admin is wider than the phone', async ({ browser }) => {
    test.setTimeout(180_000);
    const wider: string[] = [];
    for (const [email, paths] of [
      [DEMO.buyer, ['/', '/buyer/orders', '/profile', '/addresses', '/cart']],
      [DEMO.seller, ['/seller/dashboard', '/profile', '/availability']],
      [DEMO.admin, [...ADMIN_TABS.map((tab) => `/admin?tab=${tab}`), '/profile']],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 360, height: 780 }, isMobile: true });
      try {
        const page = await context.newPage();
        await signInAs(page, email);
        wider.push(...(await widerThanThePhone(page, paths)));
      } finally {
        await context.close();
      }
    }
    expect(wider).toEqual([]);
  });

  test("no screen of a driver's is wider than the phone, with a delivery selected", async ({ browser }) => {
    test.setTimeout(120_000);
    const driver = await approvedDriver(browser);
    const { order, buyer } = await offerIn(browser, { productName: 'Birch Sideboard' });
    try {
      const accepted = await driver.request.post(`/api/orders/${order.id}/assign`);
      expect(accepted.status(), await accepted.text()).toBe(200);
      await driver.page.setViewportSize({ width: 360, height: 780 });
      const wider = await widerThanThePhone(driver.page, [
        `/driver/dashboard?order=${order.id}`,
        '/profile',
        '/availability',
        '/addresses',
      ]);
      // The delivery is the one selected, with its next step at hand.
      await settled(driver.page, `/driver/dashboard?order=${order.id}`);
      await expect(driver.page.getByRole('button', { name: 'Start Delivery', exact: true })).toBeVisible();
      expect(wider).toEqual([]);
    } finally {
      await buyer.context.close();
      await driver.context.close();
    }
  });
});

/**
 * A new seller with a product they deliver themselves, and a new buyer who paid for it: an order
 * waiting for the seller's next step (Start Delivery). The browsers are the caller's to close.
 */
async function sellerWithAnOrderToDeliver(browser: import('@playwright/test').Browser) {
  const seller = await someoneElse(browser, 'seller');
  const address = { addressLine1: '5 Oak St', city: 'Springfield', state: 'IL', zipCode: '62701' };
  const home = await seller.request.post('/api/addresses', { data: address });
  expect(home.status(), await home.text()).toBe(201);
  const created = await seller.request.post('/api/products', {
    data: {
      name: 'Pine Bench',
      price: '30.00',
      category: 'Furniture',
      stock: 5,
      sellerDelivery: true,
      sellerDeliveryFee: '4.00',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: productId } = (await created.json()) as { id: string };
  const buyer = await someoneElse(browser);
  const placed = await buyer.request.post('/api/addresses', {
    data: { ...address, addressLine1: '9 Elm St' },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { id: deliveryAddressId } = (await placed.json()) as { id: string };
  const orders = await payByCard(buyer.request, {
    items: [{ productId, quantity: 1 }],
    isPickup: false,
    deliveryAddressId,
  });
  const order = orders[0];
  if (!order) throw new Error('no order made');
  await buyer.context.close();
  return { seller, order };
}

test.describe('the seller on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the orders waiting for the seller come first on the dashboard, before the earnings', async ({
    browser,
  }) => {
    const { seller, order } = await sellerWithAnOrderToDeliver(browser);
    try {
      const page = seller.page;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/seller/dashboard');
      const orders = page.getByRole('heading', { name: 'Orders', level: 2 });
      await expect(orders).toBeInViewport();
      await expect(page.getByTestId('text-orders-waiting')).toHaveText(
        '1 order is waiting for your next step.',
      );
      await expect(page.getByTestId('list-orders').getByRole('button').first()).toContainText(
        order.orderNumber,
      );
      const top = async (name: string) =>
        (await page.getByRole('heading', { name, level: 2, exact: true }).boundingBox())?.y ?? 0;
      const ordersTop = await top('Orders');
      for (const later of ['Messages', 'My Products', 'Earnings']) {
        expect(await top(later), `${later} below Orders`).toBeGreaterThan(ordersTop);
      }
      // The next step is there, on the selected order.
      await expect(page.getByRole('button', { name: 'Start Delivery' })).toBeVisible();
    } finally {
      await seller.context.close();
    }
  });
});

test('the uploader refuses a picture that cannot be shown, by name, and the others are saved', async ({
  browser,
}) => {
  const seller = await someoneElse(browser, 'seller');
  try {
    const page = seller.page;
    await page.goto('/seller/dashboard');
    await page.getByRole('button', { name: 'Create Listing' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create New Listing' });
    await expect(dialog.getByRole('button', { name: 'Add Images' })).toBeEnabled();
    // A file that says it is a JPEG, and starts like one, but is not a picture after all.
    const broken = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from('<html>not a photo</html>'),
    ]);
    await dialog.getByTestId('input-product-images').setInputFiles([
      { name: 'broken.jpg', mimeType: 'image/jpeg', buffer: broken },
      { name: 'green.png', mimeType: 'image/png', buffer: makePng(16, [40, 160, 60]) },
    ]);
    const notice = dialog.getByTestId('upload-notice-error');
    await expect(notice).toContainText('Failed to upload file');
    await expect(notice).toContainText('broken.jpg: File is not an image');
    await expect(dialog.getByTestId('image-item-0')).toBeVisible();
    await expect(dialog.getByTestId('text-image-count')).toContainText('1 of 10 images');

    await dialog.getByLabel('Name').fill('Slate Coaster');
    await dialog.getByLabel('Price').fill('6');
    await dialog.getByLabel('Stock').fill('3');
    await dialog.getByRole('button', { name: 'Create Listing' }).click();
    await expect(page.getByText('Listing created', { exact: true })).toBeVisible();
    const [product] = (await (await page.request.get('/api/seller/products')).json()) as {
      imageUrls: string[];
    }[];
    expect(product?.imageUrls).toHaveLength(1);
  } finally {
    await seller.context.close();
  }
});

test.describe('the admin', () => {
  test('the rows of an earlier search cannot be pressed while the new one is searched for', async ({
    page,
  }) => {
    await signInAs(page, DEMO.admin);
    await page.goto('/');
    await page.getByRole('link', { name: 'Admin Dashboard' }).first().click();
    const rows = page
      .getByRole('table', { name: 'Users' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell') });
    await expect(rows.first()).toBeVisible();
    // The row on screen, not the API's first: other tests make users meanwhile. A row is told apart by
    // its email.
    const firstEmail = (await rows.first().getByText(/@/).textContent()) ?? '';
    expect(firstEmail).not.toBe('');
    // The answer to the new search is held until the screen has been looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/admin\/users\?.*search=/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Search users').fill('zzz-nobody-by-this-name');
    await expect(page.getByRole('status').filter({ hasText: 'Searching users...' })).toBeVisible();
    await expect(page.getByTestId('list-rows')).toHaveAttribute('aria-busy', 'true');
    // A press on an earlier row opens nothing.
    await page
      .getByRole('row', { name: firstEmail })
      .getByRole('button', { name: /^Details of / })
      .click({ force: true });
    await expect(page.getByRole('dialog')).toHaveCount(0);
    release();
    await expect(page.getByText('No users found', { exact: true })).toBeVisible();
    await expect(page.getByText('Searching users...')).toHaveCount(0);
  });

  test('the twelve tabs are one row on a desktop and on a phone', async ({ page }) => {
    await signInAs(page, DEMO.admin);
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/admin?tab=activity');
      const tabs = page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab');
      await expect(tabs).toHaveCount(12);
      const tops = new Set<number>();
      for (const tab of await tabs.all()) tops.add(Math.round((await tab.boundingBox())?.y ?? -1));
      expect([...tops], `rows of tabs at ${viewport.width} px`).toHaveLength(1);
      // The tab the address names is in sight, and selected.
      const activity = page.getByRole('tab', { name: 'Activity' });
      await expect(activity).toHaveAttribute('aria-selected', 'true');
      await expect(activity).toBeInViewport();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
    }
  });

  test('the role select says it sets the current role and names the roles the user keeps', async ({
    page,
    browser,
  }) => {
    const seller = await someoneElse(browser, 'seller');
    await seller.context.close();
    await signInAs(page, DEMO.admin);
    await page.goto('/admin?tab=users');
    await page.getByLabel('Search users').fill(seller.email);
    const row = page.getByRole('row', { name: seller.email });
    await expect(row).toContainText(seller.email);
    await expect(page.getByRole('columnheader', { name: 'Current role' })).toHaveCount(1);
    await row.getByRole('combobox', { name: 'Current role of Eve Tester' }).click();
    await page.getByRole('option', { name: 'Buyer', exact: true }).click();
    await expect(
      page.getByText(
        "Eve Tester's current role is now Buyer. They still hold Seller: take a role away in Details.",
        { exact: true },
      ),
    ).toBeVisible();
    // What the screen said is what the server did.
    const user = await getJson<{ role: string; roles: string[] }>(
      page.request,
      `/api/admin/users/${seller.id}`,
    );
    expect(user.role).toBe('buyer');
    expect(user.roles).toEqual(['buyer', 'seller']);
  });
});

test("a user's profile says how roles change, beside the buttons that change them", async ({ page }) => {
  await signUpFresh(page);
  await page.goto('/profile');
  await expect(page.getByRole('button', { name: 'Become a seller', exact: true })).toBeVisible();
  const role = page.getByLabel('Role', { exact: true });
  await expect(role).toHaveValue('Buyer');
  await expect(page.getByText(/cannot change their own role/)).toHaveCount(0);
  await expect(
    page.getByText(
      'The role you use now. Switch between your roles from the header, or add seller or driver under Your Roles. Only an administrator grants admin or gives back a role taken away.',
    ),
  ).toBeVisible();
});
