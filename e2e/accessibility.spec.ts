import { test, expect } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';

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
      ['forgot password', '/api/forgot-password', 'Reset your password'],
    ] as const) {
      test(`the ${name} page has no serious or critical violation`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByText(ready).first()).toBeVisible();
        await expectNoAccessibilityViolations(page);
      });
    }
  });
}
