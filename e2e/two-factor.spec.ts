import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from '@playwright/test';
import { test, expect, DEMO, DEMO_PASSWORD, signUpFresh } from './support/fixtures';
import { serverErrors, startServer, stopServer, type RunningServer } from './support/server';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { logOutButton } from './support/header';

/**
 * Two-factor sign-in as a person goes through it (docs/decisions/0024-two-factor-sign-in.md): set up
 * from the profile with the key read off the page, the codes computed as an authenticator app
 * would, then signing in with a code and with a recovery code; and an administrator who must set
 * it up first, on a server of its own started with ADMIN_TWO_FACTOR=required.
 *
 * Pictures of the card and the code page, in both themes, wide and on a phone, for a person to
 * look at: `SHOTS_DIR=/tmp/shots npx playwright test e2e/two-factor.spec.ts`.
 */
const shotsDir = process.env.SHOTS_DIR;

/** A code of the app for the step after the current one: a step is never taken twice, and the next one is in the window. */
function nextCode(secret: string): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + 30_000 });
}

function currentCode(secret: string): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() });
}

async function shoot(target: Page | Locator, name: string): Promise<void> {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await target.screenshot({ path: path.join(shotsDir, `${name}.png`) });
}

/** Starts the setup on the profile's card and reads the key off the page. */
async function startSetup(page: Page): Promise<{ card: Locator; secret: string }> {
  const card = page.getByRole('region', { name: 'Two-factor sign-in' });
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await card.getByTestId('text-two-factor-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return { card, secret };
}

/** Confirms the setup with a code of the app: answers the recovery codes shown once. */
async function confirmSetup(card: Locator, secret: string): Promise<string[]> {
  await card.getByLabel('Code from the app').fill(currentCode(secret));
  await card.getByRole('button', { name: 'Turn On' }).click();
  const codes = card.getByTestId('text-recovery-code');
  await expect(codes).toHaveCount(10);
  return codes.allInnerTexts();
}

async function signOut(page: Page): Promise<void> {
  const logout = logOutButton(page);
  const landing = page.getByRole('heading', { name: 'Fast & Reliable Delivery Marketplace' });
  await logout.click();
  // A click lost while the header hydrates is made again, as a person would (e2e/auth.spec.ts).
  await expect(async () => {
    if (!(await landing.isVisible()) && (await logout.isVisible())) await logout.click();
    await expect(landing).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

async function passwordStep(page: Page, email: string, password: string, base = ''): Promise<void> {
  await page.goto(`${base}/api/login?returnTo=%2Fprofile`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByTestId('button-submit').click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 })).toBeVisible();
}

test.describe('two-factor sign-in', () => {
  // The refused codes are a 400 (setup) and a 401 (the code page), which Chromium logs.
  test.use({ allowedConsoleErrors: [/status of 40[01] \((Bad Request|Unauthorized)\)/] });

  test('set up from the profile, then sign in with a code and with a recovery code', async ({ page }) => {
    const { email, password } = await signUpFresh(page);
    await page.goto('/profile');
    const { card, secret } = await startSetup(page);
    await expectNoAccessibilityViolations(page);

    // A code that is not the app's is refused where it was typed.
    await card.getByLabel('Code from the app').fill('000000');
    await card.getByRole('button', { name: 'Turn On' }).click();
    await expect(
      card.getByText('That code is not right. Enter the current code from your app.'),
    ).toBeVisible();
    const recoveryCodes = await confirmSetup(card, secret);
    await expect(page.getByText('Two-factor sign-in is on', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'I Saved Them' }).click();
    await expect(card.getByText('On', { exact: true })).toBeVisible();
    await expect(card.getByText(/recovery codes? left\.$/)).toContainText('10 recovery codes left.');
    // The key is not shown again.
    await page.reload();
    await expect(card.getByText('On', { exact: true })).toBeVisible();
    await expect(card.getByTestId('text-two-factor-secret')).toHaveCount(0);

    await signOut(page);
    await passwordStep(page, email, password);
    await expectNoAccessibilityViolations(page);
    await page.getByLabel('Code').fill('000000');
    await page.getByTestId('button-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText(
      'That code is not right. Enter the current code from your app.',
    );
    await page.getByLabel('Code').fill(nextCode(secret));
    await page.getByTestId('button-submit').click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(card.getByText('On', { exact: true })).toBeVisible();

    await signOut(page);
    const [recovery] = recoveryCodes;
    if (!recovery) throw new Error('no recovery code');
    await passwordStep(page, email, password);
    await page.getByLabel('Code').fill(recovery);
    await page.getByTestId('button-submit').click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(card.getByText(/recovery codes? left\.$/)).toContainText('9 recovery codes left.');

    // Turned off with the password: the next sign-in asks for the password only.
    await card.getByLabel('Password or a code from the app').fill(password);
    await card.getByRole('button', { name: 'Turn Off Two-Factor Sign-In' }).click();
    await expect(card.getByText('Off', { exact: true })).toBeVisible();
  });
});

test.describe('an administrator where two-factor sign-in is required', () => {
  test.describe.configure({ timeout: 180_000 });
  let server: RunningServer;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await startServer({ env: { ADMIN_TWO_FACTOR: 'required' } });
  });
  test.afterAll(async () => {
    if (!server) return;
    await stopServer(server);
    expect(serverErrors(server.output())).toEqual([]);
  });

  test('is sent to set it up before anything else, then has the admin pages back', async ({ page }) => {
    const base = server.url;
    const signedIn = await page.request.post(`${base}/api/login`, {
      data: { email: DEMO.admin, password: DEMO_PASSWORD },
    });
    expect(signedIn.status()).toBe(200);
    const refused = await page.request.get(`${base}/api/admin/users`);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'two_factor_setup_required' });

    await page.goto(`${base}/admin`);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(
      page.getByRole('alert').filter({ hasText: 'Administrators must use two-factor sign-in.' }),
    ).toHaveText('Administrators must use two-factor sign-in. Set it up to use the admin pages again.');
    await shoot(page.getByRole('region', { name: 'Two-factor sign-in' }), 'two-factor-required-light-wide');
    const { card, secret } = await startSetup(page);
    await confirmSetup(card, secret);
    await card.getByRole('button', { name: 'I Saved Them' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Administrators must use two-factor sign-in.' }),
    ).toHaveCount(0);

    await page.goto(`${base}/admin`);
    await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
    // The user details say who signs in with two factors.
    await page.getByLabel('Search users').fill(DEMO.admin);
    await page
      .getByRole('row', { name: DEMO.admin })
      .getByRole('button', { name: /^Details of / })
      .click();
    const details = page.getByRole('dialog');
    await expect(details.getByTestId('text-user-two-factor')).toHaveText('On');
  });
});

test.describe('pictures', () => {
  test.skip(!shotsDir, 'SHOTS_DIR is not set');
  for (const theme of ['light', 'dark'] as const) {
    for (const size of [
      { name: 'phone', viewport: { width: 390, height: 844 } },
      { name: 'wide', viewport: { width: 1280, height: 900 } },
    ]) {
      test(`the card and the code page, ${theme}, ${size.name}`, async ({ page }) => {
        await page.setViewportSize(size.viewport);
        await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
        const { email, password } = await signUpFresh(page);
        await page.goto('/profile');
        const { card, secret } = await startSetup(page);
        await shoot(card, `two-factor-setup-${theme}-${size.name}`);
        await confirmSetup(card, secret);
        await shoot(card, `two-factor-codes-${theme}-${size.name}`);
        await card.getByRole('button', { name: 'I Saved Them' }).click();
        await expect(card.getByText('On', { exact: true })).toBeVisible();
        await shoot(card, `two-factor-on-${theme}-${size.name}`);
        await page.context().clearCookies();
        await passwordStep(page, email, password);
        await shoot(page, `two-factor-code-page-${theme}-${size.name}`);
        await page.getByLabel('Code').fill('000000');
        await page.getByTestId('button-submit').click();
        await expect(page.getByTestId('login-error')).toBeVisible();
        await shoot(page, `two-factor-code-error-${theme}-${size.name}`);
      });
    }
  }
});
