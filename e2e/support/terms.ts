import type { Locator } from '@playwright/test';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The value a description list gives a term ("Total", "Pickup time", "Your earnings"): the definition
 * right after the term that reads so, as a screen reader reads them. A definition cannot be named
 * (ARIA prohibits it), so it is found beside its term.
 */
export const definitionOf = (scope: Locator, term: string | RegExp) =>
  scope
    .getByRole('term')
    .filter({ hasText: typeof term === 'string' ? new RegExp(`^${escapeRegExp(term)}$`) : term })
    .locator('xpath=following-sibling::dd[1]');
