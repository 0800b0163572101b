import { test, expect, signUpFresh } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';

test.describe('availability page', () => {
  test('a seller adds and removes a weekly schedule row', async ({ page }) => {
    await signUpFresh(page, 'seller');
    await page.goto('/availability');
    await expect(page.getByRole('heading', { level: 1, name: 'Availability' })).toBeVisible();
    await expect(
      page.getByText('Set your weekly hours and blackout dates for customer pickups'),
    ).toBeVisible();

    const card = page.getByRole('region', { name: 'Weekly Schedule' });
    await expect(card.getByText('No weekly hours yet')).toBeVisible();
    // The form starts at Monday 09:00 to 17:00 (docs/rules/catalog-and-orders.md, Addresses, availability and
    // slots).
    await expect(card.getByLabel('Day')).toContainText('Monday');
    await expect(card.getByLabel('Start time')).toHaveValue('09:00');
    await expect(card.getByLabel('End time')).toHaveValue('17:00');

    await card.getByLabel('Day').click();
    await page.getByRole('option', { name: 'Wednesday' }).click();
    await card.getByLabel('Start time').fill('10:00');
    await card.getByLabel('End time').fill('14:00');
    await card.getByRole('button', { name: 'Add hours' }).click();

    const rows = card.getByRole('list', { name: 'Weekly hours' }).getByRole('listitem');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Wednesday');
    await expect(rows.first()).toContainText('10:00 AM – 2:00 PM');
    await expect(page.getByText('Schedule added', { exact: true })).toBeVisible();

    await rows.first().getByRole('button', { name: 'Remove Wednesday 10:00 AM – 2:00 PM' }).click();
    await expect(card.getByText('No weekly hours yet')).toBeVisible();
  });

  test.describe('the same hours twice', () => {
    // Chromium logs the 409 answer of the second POST: that is this test's point.
    test.use({ allowedConsoleErrors: [/status of 409 \(Conflict\)/] });

    test('are refused, naming the day and times, and listed once', async ({ page }) => {
      await signUpFresh(page, 'seller');
      await page.goto('/availability');
      const card = page.getByRole('region', { name: 'Weekly Schedule' });
      const rows = card.getByRole('list', { name: 'Weekly hours' }).getByRole('listitem');
      // The schedule has been read (as a person sees it empty) before the first hours are added.
      await expect(card.getByText('No weekly hours yet')).toBeVisible();
      await card.getByRole('button', { name: 'Add hours' }).click();
      await expect(rows).toHaveCount(1);
      await card.getByRole('button', { name: 'Add hours' }).click();
      await expect(
        page.getByText('Failed to add schedule: Monday 09:00 to 17:00 is already in your weekly schedule.', {
          exact: true,
        }),
      ).toBeVisible();
      await page.reload();
      await expect(rows).toHaveCount(1);
    });
  });

  test('a buyer adds and removes blackout dates', async ({ page }) => {
    await signUpFresh(page);
    await page.goto('/availability');
    await expect(page.getByText('Set your weekly hours and blackout dates for deliveries')).toBeVisible();

    const card = page.getByRole('region', { name: 'Blackout Dates' });
    await expect(card.getByText('No blackout dates')).toBeVisible();
    await card.getByLabel('Start date').fill('2030-12-24');
    await card.getByLabel('End date').fill('2030-12-26');
    await card.getByLabel('Reason').fill('Holiday');
    await card.getByRole('button', { name: 'Add blackout dates' }).click();

    const rows = card.getByRole('list', { name: 'Blackout dates' }).getByRole('listitem');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Tue, Dec 24, 2030 – Thu, Dec 26, 2030');
    await expect(rows.first()).toContainText('Holiday');

    await rows
      .first()
      .getByRole('button', { name: /^Remove blackout/ })
      .click();
    await expect(card.getByText('No blackout dates')).toBeVisible();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the page has no serious violation, ${theme} theme`, async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await signUpFresh(page, 'driver');
      await page.request.post('/api/availability/schedules', {
        data: { dayOfWeek: 2, startTime: '08:00', endTime: '12:00' },
      });
      await page.request.post('/api/availability/blackouts', {
        data: { startDate: '2030-07-04', endDate: '2030-07-04', reason: 'Holiday' },
      });
      await page.goto('/availability');
      await expect(
        page.getByRole('list', { name: 'Weekly hours' }).getByText('Tuesday', { exact: true }),
      ).toBeVisible();
      await expect(
        page.getByRole('list', { name: 'Blackout dates' }).getByText('Holiday', { exact: true }),
      ).toBeVisible();
      await expectNoAccessibilityViolations(page);
    });
  }
});
