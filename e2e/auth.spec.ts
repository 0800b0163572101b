import { test, expect, DEMO, DEMO_PASSWORD, mailedLink, signUpFresh } from './support/fixtures';
import { headerLink, logOutButton, signInButton } from './support/header';

test.describe('accounts', () => {
  // The sign-in page answers a refused form with its status (400, 401); Chromium logs those.
  test.use({ allowedConsoleErrors: [/status of 40[013] \((Bad Request|Unauthorized|Forbidden)\)/] });

  test('a visitor creates an account on the sign-in page, confirms the address by the mailed link and lands signed in', async ({
    page,
  }) => {
    const email = `signup-${Date.now()}-${test.info().workerIndex}@example.com`;
    await page.goto('/');
    await signInButton(page).click();
    await page.getByTestId('link-create-account').click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.getByLabel('First name').fill('Nina');
    await page.getByLabel('Last name').fill('Newcomer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByTestId('button-submit').click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByTestId('button-submit').click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByTestId('account-message')).toHaveText(
      'Check your email to finish creating your account.',
    );
    // Not confirmed yet: the right password is refused with a way to get the link again.
    await page.goto('/api/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByTestId('button-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText(
      'Confirm your email address first: we sent you a link.',
    );
    await expect(page.getByTestId('button-resend-verification')).toBeVisible();
    await page.goto(await mailedLink(email, '/api/verify-email'));
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Featured Products' })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Role: Buyer', { exact: true })).toBeVisible();
    await expect(logOutButton(page)).toBeVisible();
  });

  test('a demo buyer signs in with the form; a wrong password is explained', async ({ page }) => {
    await page.goto('/api/login');
    await page.getByLabel('Email').fill(DEMO.buyer);
    await page.getByLabel('Password').fill('not the password');
    await page.getByTestId('button-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText('Invalid email or password');
    await expect(page.getByLabel('Email')).toHaveValue(DEMO.buyer);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByTestId('button-submit').click();
    await expect(headerLink(page, 'My Orders')).toBeVisible();
  });

  test('signing out ends the session and shows the landing page', async ({ page }) => {
    await page.goto('/api/login');
    await page.getByLabel('Email').fill(DEMO.seller);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByTestId('button-submit').click();
    const logout = logOutButton(page);
    const landing = page.getByRole('heading', { name: 'Fast & Reliable Delivery Marketplace' });
    await expect(logout).toBeVisible();
    await logout.click();
    // Twice in CI the first click was lost as the page finished hydrating and the header's controls
    // were drawn again with their tooltips (lib/early-input.ts now replays a held click on the new
    // button); a person whose click did nothing clicks again.
    await expect(async () => {
      if (!(await landing.isVisible()) && (await logout.isVisible())) await logout.click();
      await expect(landing).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    await page.reload();
    await expect(signInButton(page)).toBeVisible();
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  });

  test('Become a Driver signs up straight into the driver role', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Become a Driver', exact: true }).click();
    await expect(page.getByText('start delivering as a driver')).toBeVisible();
    await page.getByTestId('link-create-account').click();
    await page.getByLabel('First name').fill('Dana');
    await page.getByLabel('Last name').fill('Wheels');
    const email = `driver-${Date.now()}-${test.info().workerIndex}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByTestId('button-submit').click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await page.goto(await mailedLink(email, '/api/verify-email'));
    await expect(
      page.getByRole('banner').getByRole('button', { name: 'Current role: Driver. Switch role' }),
    ).toBeVisible();
    await page.goto('/driver/dashboard');
    await expect(page.getByRole('heading', { name: 'Driver Dashboard' })).toBeVisible();
  });

  test('a forgotten password is reset by the mailed link; the old session ends', async ({
    page,
    browser,
  }) => {
    const { email, password } = await signUpFresh(page);
    // Another device stays signed in until the reset.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    const signedIn = await otherPage.request.post('/api/login', { data: { email, password } });
    expect(signedIn.status()).toBe(200);
    await page.context().clearCookies();
    await page.goto('/api/login');
    await page.getByTestId('link-forgot-password').click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByTestId('button-submit').click();
    await expect(page.getByTestId('account-message')).toHaveText(
      'If an account exists for that address, we have sent a link to reset its password.',
    );
    const link = await mailedLink(email, '/api/reset-password');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByTestId('button-submit').click();
    await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();
    expect((await otherPage.request.get('/api/auth/user')).status()).toBe(401);
    await other.close();
    // The link works once.
    await page.goto(link);
    await expect(page.getByTestId('login-error')).toHaveText('This link has expired or was already used.');
    await page.goto('/api/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a brand new password');
    await page.getByTestId('button-submit').click();
    await expect(logOutButton(page)).toBeVisible();
  });
});
