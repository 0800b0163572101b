import { test, expect } from './support/fixtures';
import { signInAs, DEMO } from './support/fixtures';
import { logOutButton } from './support/header';

test.describe('support page', () => {
  test('shows the company details and validates every field with the spec messages', async ({ page }) => {
    await page.goto('/support');
    await expect(page.getByText('support@localdelivery.example')).toBeVisible();
    await expect(page.getByText('(217) 555-0142')).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill('A');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Subject', { exact: true }).fill('Hi');
    await page.getByLabel('Message', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Send Message', exact: true }).click();
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Subject must be at least 3 characters')).toBeVisible();
    await expect(page.getByText('Message must be at least 10 characters')).toBeVisible();
  });

  test('sends a message, confirms it, and offers to send another', async ({ page }) => {
    await page.goto('/support');
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await page.getByLabel(/^Phone/).fill('555-0100');
    await page.getByLabel('Subject', { exact: true }).fill('Delivery question');
    await page.getByLabel('Message', { exact: true }).fill('Do you deliver on Sundays to the east side?');
    const sent = page.waitForResponse(
      (r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Send Message', exact: true }).click();
    expect((await sent).status()).toBe(201);
    await expect(page.getByRole('button', { name: 'Send Another Message' })).toBeVisible();
    await page.getByRole('button', { name: 'Send Another Message' }).click();
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  });

  test('is there for a signed-in user too, with the app header', async ({ page }) => {
    await signInAs(page, DEMO.buyer);
    await page.goto('/support');
    await expect(logOutButton(page)).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toBeVisible();
  });
});
