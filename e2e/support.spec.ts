import { test, expect } from './support/fixtures';
import { signInAs, DEMO } from './support/fixtures';

test.describe('support page', () => {
  test('shows the company details and validates every field with the spec messages', async ({ page }) => {
    await page.goto('/support');
    await expect(page.getByText('support@localdelivery.example')).toBeVisible();
    await expect(page.getByText('(217) 555-0142')).toBeVisible();
    await page.getByTestId('input-name').fill('A');
    await page.getByTestId('input-email').fill('not-an-email');
    await page.getByTestId('input-subject').fill('Hi');
    await page.getByTestId('textarea-message').fill('short');
    await page.getByTestId('button-send-message').click();
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Subject must be at least 3 characters')).toBeVisible();
    await expect(page.getByText('Message must be at least 10 characters')).toBeVisible();
  });

  test('sends a message, confirms it, and offers to send another', async ({ page }) => {
    await page.goto('/support');
    await page.getByTestId('input-name').fill('Ada Lovelace');
    await page.getByTestId('input-email').fill('ada@example.com');
    await page.getByTestId('input-phone').fill('555-0100');
    await page.getByTestId('input-subject').fill('Delivery question');
    await page.getByTestId('textarea-message').fill('Do you deliver on Sundays to the east side?');
    const sent = page.waitForResponse(
      (r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST',
    );
    await page.getByTestId('button-send-message').click();
    expect((await sent).status()).toBe(201);
    await expect(page.getByTestId('button-send-another')).toBeVisible();
    await page.getByTestId('button-send-another').click();
    await expect(page.getByTestId('input-name')).toHaveValue('');
  });

  test('is there for a signed-in user too, with the app header', async ({ page }) => {
    await signInAs(page, DEMO.buyer);
    await page.goto('/support');
    await expect(page.getByTestId('button-logout')).toBeVisible();
    await expect(page.getByTestId('input-name')).toBeVisible();
  });
});
