import { test, expect, signInAs, signUpFresh, DEMO } from './support/fixtures';

/** Mail (docs/decisions/0019-reaching-people.md, Mail): what the embedded install keeps, and a driver's switch. */
test.describe('mail', () => {
  test('the admin reads a contact message in the Mail tab', async ({ page }) => {
    const subject = `Sunday deliveries ${Date.now()}`;
    const sent = await page.request.post('/api/contact', {
      data: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        subject,
        message: 'Do you deliver on Sundays to the east side?',
      },
    });
    expect(sent.status()).toBe(201);
    await signInAs(page, DEMO.admin);
    await page.goto('/admin?tab=mail');
    const row = page.locator('tr', { hasText: `[Support] ${subject}` });
    await expect(row).toBeVisible();
    await expect(row.getByText('support@localdelivery.example')).toBeVisible();
    await row.getByText('Show text').click();
    await expect(row.getByText('Do you deliver on Sundays to the east side?')).toBeVisible();
  });

  test('a driver turns offer emails on, and it stays on', async ({ page }) => {
    await signUpFresh(page, 'driver');
    await page.goto('/profile');
    const box = page.getByRole('checkbox', {
      name: 'Email me new delivery offers within 50 miles of my primary address',
    });
    await expect(box).toBeEnabled();
    await expect(box).not.toBeChecked();
    await box.click();
    await expect(page.getByText('Offer emails turned on', { exact: true })).toBeVisible();
    await page.reload();
    await expect(box).toBeChecked();
  });
});
