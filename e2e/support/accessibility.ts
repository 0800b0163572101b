import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

interface AccessibilityOptions {
  /** Which impacts fail the check; serious and critical unless told. */
  impacts?: readonly Impact[];
}

/**
 * Waits until the page has settled the way a user waits for it: no dialog, sheet or toast still on its way
 * out (Radix keeps a closing one in the page, data-state="closed", until its exit animation ends), no part of
 * the page busy updating (the checkout's order summary is dimmed, aria-busy, while its new price is on its
 * way) and no animation or transition running. Browser tests run with reduced motion (playwright.config.ts),
 * so this is quick; it keeps axe from measuring colours halfway through a fade.
 */
async function settled(page: Page): Promise<void> {
  await expect(
    page.locator(
      '[role="dialog"][data-state="closed"], [role="alertdialog"][data-state="closed"], .toast-root[data-state="closed"], [aria-busy="true"]',
    ),
  ).toHaveCount(0);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}

/** One line a reader can act on: the rule, what it asks for, and where it failed. */
function describeViolation(violation: { id: string; help: string; nodes: { target: unknown[] }[] }): string {
  const where = violation.nodes.map((node) => node.target.map(String).join(' ')).join(', ');
  return `${violation.id}: ${violation.help} (${where})`;
}

/**
 * The accessibility check of every browser test: axe finds no violation of the given impacts
 * (serious or critical by default) on the page as the user sees it now.
 */
export async function expectNoAccessibilityViolations(
  page: Page,
  options: AccessibilityOptions = {},
): Promise<void> {
  const impacts: readonly string[] = options.impacts ?? ['serious', 'critical'];
  await settled(page);
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations
    .filter((violation) => violation.impact != null && impacts.includes(violation.impact))
    .map(describeViolation);
  expect(
    violations,
    `${violations.length} accessibility violation(s) on ${page.url()}:\n${violations.join('\n')}`,
  ).toEqual([]);
}
