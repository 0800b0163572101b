import type { Page } from '@playwright/test';

/**
 * Scrolls a dashboard's section (its level-2 heading: "My Products", "Earnings") into view, as a
 * user does: sections below a phone's first screen are drawn when scrolled near
 * (docs/decisions/0014-first-load.md, Drawn when scrolled near).
 */
export async function scrollToSection(page: Page, title: string): Promise<void> {
  await page.getByRole('heading', { level: 2, name: title, exact: true }).scrollIntoViewIfNeeded();
}
