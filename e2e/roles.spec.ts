import { test, expect, DEMO, signInAs, signUpFresh } from './support/fixtures';
import { cartButton, headerLink } from './support/header';

const LINKS = ['My Orders', 'Seller Dashboard', 'Driver Dashboard', 'Admin Dashboard'] as const;

async function expectLinks(page: import('@playwright/test').Page, visible: readonly string[]) {
  for (const label of LINKS) {
    if (visible.includes(label)) await expect(headerLink(page, label)).toBeVisible();
    else await expect(headerLink(page, label)).toHaveCount(0);
  }
}

/** The role switcher of a user with several roles: a button naming the current one. */
const switcherOf = (page: import('@playwright/test').Page, role: string) =>
  page.getByRole('banner').getByRole('button', { name: `Current role: ${role}. Switch role` });

test.describe('header by role', () => {
  test('a buyer with one role sees a static role label and My Orders', async ({ page }) => {
    await signUpFresh(page);
    await page.goto('/');
    // One role: a label read as "Role: Buyer", not a button.
    const header = page.getByRole('banner');
    await expect(header.getByText('Role: Buyer', { exact: true })).toBeVisible();
    await expect(header.getByRole('button', { name: /Switch role/ })).toHaveCount(0);
    await expectLinks(page, ['My Orders']);
    await expect(header.getByRole('link', { name: 'Profile: Eve Tester' })).toHaveAttribute(
      'href',
      '/profile',
    );
    await expect(header.getByRole('link', { name: 'My addresses' })).toHaveAttribute('href', '/addresses');
    await expect(cartButton(page)).toHaveText('0');
  });

  test('the admin sees the links of all four roles', async ({ page }) => {
    await signInAs(page, DEMO.admin);
    await page.goto('/');
    await expect(switcherOf(page, 'Admin')).toBeVisible();
    await expectLinks(page, LINKS);
  });

  test('switching roles changes the current role on the server and the links', async ({ page }) => {
    await signUpFresh(page, 'seller');
    await page.goto('/');
    await expect(switcherOf(page, 'Seller')).toHaveText(/Seller/);
    await expectLinks(page, ['Seller Dashboard']);
    await switcherOf(page, 'Seller').click();
    await expect(page.getByRole('menuitemradio', { name: 'Seller', checked: true })).toBeVisible();
    await expect(page.getByRole('menuitemradio', { name: 'Admin' })).toHaveCount(0);
    await page.getByRole('menuitemradio', { name: 'Buyer' }).click();
    await expect(switcherOf(page, 'Buyer')).toHaveText(/Buyer/);
    await expectLinks(page, ['My Orders']);
    const me = await (await page.request.get('/api/auth/user')).json();
    expect(me.role).toBe('buyer');
    await page.reload();
    await expect(switcherOf(page, 'Buyer')).toHaveText(/Buyer/);
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
