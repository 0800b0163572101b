import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Opens the tab of that name and waits until it is the selected one. Once in CI a press on an admin
 * tab right after the page showed was lost (the Users tab stayed selected for a minute); 60 tries at
 * 1×, 4× and 10× CPU slowdown did not lose one. A person whose press did nothing presses again, and
 * so does this: pressing the selected tab again changes nothing.
 */
export async function openTab(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tab', { name });
  await expect(async () => {
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}
