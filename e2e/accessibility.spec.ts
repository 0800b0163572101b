import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`accessibility, ${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
    });

    for (const [name, path, ready] of [
      ['landing', '/', 'Fast & Reliable Delivery Marketplace'],
      ['support', '/support', 'Send Message'],
      ['sign-in', '/api/login', 'Sign in'],
      ['create account', '/api/login?mode=signup', 'Create your account'],
    ] as const) {
      test(`the ${name} page has no serious or critical violation`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByText(ready).first()).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      });
    }
  });
}
