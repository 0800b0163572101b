import { test, expect, DEMO, signInAs, signUpFresh } from './support/fixtures';

const LINKS = [
  'link-my-orders',
  'link-seller-dashboard',
  'link-driver-dashboard',
  'link-admin-dashboard',
] as const;

async function expectLinks(page: import('@playwright/test').Page, visible: readonly string[]) {
  for (const id of LINKS) {
    if (visible.includes(id)) await expect(page.getByTestId(id)).toBeVisible();
    else await expect(page.getByTestId(id)).toHaveCount(0);
  }
}

test.describe('header by role', () => {
  test('a buyer with one role sees a static role label and My Orders', async ({ page }) => {
    await signUpFresh(page);
    await page.goto('/');
    const switcher = page.getByTestId('role-switcher');
    await expect(switcher).toHaveText(/Buyer/);
    await expect(switcher).not.toHaveRole('button');
    await expectLinks(page, ['link-my-orders']);
    await expect(page.getByTestId('link-profile')).toHaveAttribute('href', '/profile');
    await expect(page.getByTestId('link-addresses')).toHaveAttribute('href', '/addresses');
    await expect(page.getByTestId('cart-count')).toHaveText('0');
  });

  test('the admin sees the links of all four roles', async ({ page }) => {
    await signInAs(page, DEMO.admin);
    await page.goto('/');
    await expect(page.getByTestId('role-switcher')).toHaveText(/Admin/);
    await expectLinks(page, LINKS);
  });

  test('switching roles changes the current role on the server and the links', async ({ page }) => {
    await signUpFresh(page, 'seller');
    await page.goto('/');
    await expect(page.getByTestId('role-switcher')).toHaveText(/Seller/);
    await expectLinks(page, ['link-seller-dashboard']);
    await page.getByTestId('role-switcher').click();
    await expect(page.getByTestId('role-option-admin')).toHaveCount(0);
    await page.getByTestId('role-option-buyer').click();
    await expect(page.getByTestId('role-switcher')).toHaveText(/Buyer/);
    await expectLinks(page, ['link-my-orders']);
    const me = await (await page.request.get('/api/auth/user')).json();
    expect(me.role).toBe('buyer');
    await page.reload();
    await expect(page.getByTestId('role-switcher')).toHaveText(/Buyer/);
  });
});

test.describe('role gates', () => {
  for (const [path, message] of [
    ['/seller/dashboard', 'You need to be a seller to access this page'],
    ['/driver/dashboard', 'You need to be a driver to access this page'],
    ['/admin', 'You must be an admin to access this page'],
  ] as const) {
    test(`a buyer opening ${path} is told why and sent home`, async ({ page }) => {
      await signUpFresh(page);
      await page.goto(path);
      await expect(page.getByText(message, { exact: true })).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { name: 'Featured Products' })).toBeVisible();
    });
  }

  test('the admin opens every dashboard', async ({ page }) => {
    await signInAs(page, DEMO.admin);
    for (const [path, heading] of [
      ['/seller/dashboard', 'Seller Dashboard'],
      ['/driver/dashboard', 'Driver Dashboard'],
      ['/admin', 'Admin Dashboard'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    }
  });
});
