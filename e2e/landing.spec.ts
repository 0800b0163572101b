import { test, expect } from './support/fixtures';
import { signInButton } from './support/header';

test.describe('landing page (signed out)', () => {
  test('shows the headline, the three How It Works cards and every start button', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Fast & Reliable Delivery Marketplace' })).toBeVisible();
    await expect(
      page.getByText(
        'Shop from local sellers and get products delivered to your door. Join as a seller or earn money as a delivery driver.',
      ),
    ).toBeVisible();
    for (const card of ['Shop as a Buyer', 'Sell Your Products', 'Deliver & Earn']) {
      await expect(page.getByRole('heading', { name: card })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Start Shopping', exact: true })).toHaveText(
      /Start Shopping/,
    );
    await expect(page.getByRole('button', { name: 'Become a Driver', exact: true })).toHaveText(
      /Become a Driver/,
    );
    await expect(page.getByRole('button', { name: 'Get Started Now', exact: true })).toHaveText(
      /Get Started Now/,
    );
    const footer = page.locator('footer');
    await expect(footer.getByRole('link', { name: 'Support & Contact' })).toHaveAttribute('href', '/support');
    await expect(footer).toContainText(String(new Date().getFullYear()));
    // The e2e server runs the built-in test provider: the footer says so and claims no Stripe.
    await expect(footer.getByTestId('text-test-payments')).toHaveText(
      'Test payments: no real money is taken',
    );
    await expect(footer).not.toContainText('Stripe');
  });

  test('Sign In and Start Shopping open the sign-in page', async ({ page }) => {
    await page.goto('/');
    await signInButton(page).click();
    await expect(page).toHaveURL(/\/api\/login/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.goto('/');
    await page.getByRole('button', { name: 'Start Shopping', exact: true }).click();
    await expect(page).toHaveURL(/\/api\/login/);
  });

  test('the theme toggle switches to dark and survives a reload', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(page.locator('html')).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
  });

  test.describe('at an unknown path', () => {
    // The page itself answers 404 (docs/ARCHITECTURE.md, Requests and errors); Chromium logs that.
    test.use({ allowedConsoleErrors: [/status of 40[14] \((Unauthorized|Not Found)\)/] });

    test('an unknown path shows the 404 text with status 404', async ({ page }) => {
      const answer = await page.goto('/no/such/page');
      expect(answer?.status()).toBe(404);
      await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
    });
  });

  test('a signed-in page asks a visitor to sign in and comes back to it, never the 404', async ({ page }) => {
    await page.goto('/buyer/orders');
    await expect(page.getByRole('heading', { level: 1, name: 'Please sign in' })).toBeVisible();
    await expect(page.getByText('Did you forget to add the page to the router?')).toHaveCount(0);
    await page.getByTestId('button-sign-in-to-continue').click();
    await expect(page).toHaveURL(/\/api\/login\?returnTo=%2Fbuyer%2Forders/);
  });
});
