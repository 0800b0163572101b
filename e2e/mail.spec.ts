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
    // Other tests mail meanwhile, and newer mail only pushes this one further down the list: the
    // admin pages forward with the tab's own pager until it shows, as in an inbox.
    const table = page.getByRole('table', { name: 'Mail, newest first' });
    const pager = page.getByRole('navigation', { name: 'Mail pages' });
    const next = pager.getByRole('button', { name: 'Next' });
    for (let shown = 1; ; shown++) {
      await expect(table).toBeVisible();
      if ((await row.count()) > 0) break;
      expect(shown, `[Support] ${subject} on the first 10 pages`).toBeLessThan(10);
      await next.click();
      await expect(pager.getByText(/^Page \d+ of/)).toHaveText(new RegExp(`^Page ${shown + 1} of`));
    }
    await expect(row).toBeVisible();
    await expect(row.getByText('support@localdelivery.example')).toBeVisible();
    await row.getByText('Show text').click();
    await expect(row.getByText('Do you deliver on Sundays to the east side?')).toBeVisible();
  });

  test("the Mail tab's pager answers a press made as soon as the page shows it", async ({ page }) => {
    // More than a page of mail, whatever else this server has sent: contact messages from eleven
    // addresses (the form takes five an address in ten minutes).
    for (let i = 1; i <= 11; i++) {
      const sent = await page.request.post('/api/contact', {
        data: {
          name: 'Pager Test',
          email: 'pager@example.com',
          subject: `Page filler ${i}`,
          message: 'Filler for the pager.',
        },
        headers: { 'x-forwarded-for': `203.0.113.${((process.pid + i) % 254) + 1}` },
      });
      expect(sent.status()).toBe(201);
    }
    await signInAs(page, DEMO.admin);
    // The tab comes in the server's HTML; the page hydrates once the tab's own code is there, so
    // the first press on Next is not lost on a part still waiting for it.
    await page.goto('/admin?tab=mail');
    const pager = page.getByRole('navigation', { name: 'Mail pages' });
    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(pager.getByText(/^Page \d+ of/)).toHaveText(/^Page 2 of/);
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
