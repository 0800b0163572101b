import type { Page } from '@playwright/test';

/**
 * The header's cart button, named "Shopping cart, 2 items"; its text is the number drawn on it. An open
 * cart sheet hides the rest of the page from assistive technology, the button with it, so it is looked
 * for among hidden elements too (there is only ever one).
 */
export const cartButton = (page: Page) =>
  page.getByRole('button', { name: /^Shopping cart, /, includeHidden: true });

/** A role's link in the header's Main navigation ("My Orders", "Seller Dashboard"). */
export const headerLink = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });

/** The signed-in header's Log out button (not the menu's item of the same words). */
export const logOutButton = (page: Page) => page.getByRole('button', { name: 'Log out', exact: true });

/** The visitor's header's Sign In button (the page may have others of its own). */
export const signInButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true });

/**
 * The header's messages button, named "Messages: 2 unread" or "Messages: nothing unread"; its text is
 * the count drawn on it, if any.
 */
export const unreadMessagesButton = (page: Page) => page.getByRole('button', { name: /^Messages: / });
