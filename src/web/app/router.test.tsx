// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { AppRouter } from './router';
import {
  emptyCatalog,
  installDomStubs,
  makeUser,
  mockFetch,
  renderWithProviders,
  signedInAs,
  signedOut,
} from '../test-support/render';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

function visit(path: string) {
  window.history.replaceState(null, '', path);
  return renderWithProviders(<AppRouter />);
}

describe('route table (docs/rules/screens-buyer.md, Routes and headers)', () => {
  it('shows the landing page at / to a visitor', async () => {
    mockFetch(signedOut);
    visit('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Fast & Reliable Delivery Marketplace' }),
    ).toBeVisible();
    expect(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign In' })).toBeVisible();
  });

  it('shows the support page to a visitor', async () => {
    mockFetch(signedOut);
    visit('/support');
    expect(await screen.findByRole('heading', { level: 1, name: 'Support & Contact' })).toBeVisible();
    expect(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign In' })).toBeVisible();
  });

  it.each(['/profile', '/buyer/orders', '/addresses', '/availability', '/seller/dashboard', '/admin'])(
    'asks a visitor at %s to sign in and come back, never the 404',
    async (path) => {
      mockFetch(signedOut);
      visit(path);
      expect(await screen.findByRole('heading', { level: 1, name: 'Please sign in' })).toBeVisible();
      expect(screen.queryByText('Did you forget to add the page to the router?')).toBeNull();
      expect(screen.getByTestId('button-sign-in-to-continue')).toBeVisible();
    },
  );

  it.each(['/checkout', '/payment'])('asks a visitor at %s to sign in to check out', async (path) => {
    mockFetch(signedOut);
    visit(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to check out' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Cart' }).getAttribute('href')).toBe('/cart');
  });

  it('shows a visitor a shared product link, and the catalog', async () => {
    mockFetch(signedOut, emptyCatalog);
    visit('/products/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Product not found' })).toBeVisible();
    expect(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign In' })).toBeVisible();
  });

  it('lets a visitor browse the catalog with search and categories', async () => {
    mockFetch(signedOut, emptyCatalog);
    visit('/products');
    expect(await screen.findByRole('heading', { level: 1, name: 'Browse products' })).toBeVisible();
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Books' })).toBeVisible();
    expect(screen.getByTestId('text-distance-sign-in')).toBeVisible();
  });

  it('shows the 404 page for an unknown path to a visitor', async () => {
    mockFetch(signedOut);
    visit('/no/such/page');
    expect(await screen.findByText('Did you forget to add the page to the router?')).toBeVisible();
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  });

  it('shows the home page at / to a signed-in user', async () => {
    mockFetch(signedInAs(makeUser()), emptyCatalog);
    visit('/');
    expect(await screen.findByRole('heading', { name: 'Featured Products' })).toBeVisible();
    expect(await screen.findByText('No products found')).toBeVisible();
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'My Orders' }),
    ).toHaveAttribute('href', '/buyer/orders');
    expect(screen.getByTestId('text-greeting')).toHaveTextContent('Welcome back, Sam');
  });

  it('greets a brand-new account "Welcome", not "Welcome back" (docs/rules/screens-buyer.md, Catalog screens)', async () => {
    mockFetch(signedInAs(makeUser({ createdAt: new Date().toISOString() })), emptyCatalog);
    visit('/');
    expect(await screen.findByTestId('text-greeting')).toHaveTextContent(/^Welcome, Sam$/);
  });

  it.each([
    ['/buyer/orders', 'My Orders'],
    ['/addresses', 'My Addresses'],
    ['/availability', 'Availability'],
    ['/profile', 'Profile'],
    ['/checkout', 'Checkout'],
    ['/cart', 'Shopping Cart'],
    ['/products/abc', 'Product not found'],
  ])('routes %s to its page', async (path, heading) => {
    mockFetch(signedInAs(makeUser()), emptyCatalog);
    visit(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
  });

  it('loads the payment page on demand', async () => {
    mockFetch(signedInAs(makeUser()));
    visit('/payment');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment' })).toBeVisible();
  });

  it('shows the 404 page for an unknown path when signed in', async () => {
    mockFetch(signedInAs(makeUser()));
    visit('/no/such/page');
    expect(await screen.findByText('Did you forget to add the page to the router?')).toBeVisible();
  });

  it('shows "Cart is Empty" at checkout with an empty cart', async () => {
    mockFetch(signedInAs(makeUser()));
    visit('/checkout');
    expect(await screen.findByRole('heading', { name: 'Cart is Empty' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Continue Shopping' }).getAttribute('href')).toBe('/');
  });

  it('leaves the page the app opens on where the browser put it, and opens the next one at the top', async () => {
    const scrollTo = vi.fn();
    window.scrollTo = scrollTo;
    mockFetch(signedInAs(makeUser()));
    visit('/checkout');
    expect(await screen.findByRole('heading', { name: 'Cart is Empty' })).toBeVisible();
    expect(scrollTo).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('link', { name: 'Continue Shopping' }));
    expect(await screen.findByTestId('text-greeting')).toBeVisible();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });
});

describe('role gates (docs/rules/screens-work.md, Dashboards)', () => {
  it.each([
    ['/seller/dashboard', 'You need to be a seller to access this page'],
    ['/driver/dashboard', 'You need to be a driver to access this page'],
    ['/admin', 'You must be an admin to access this page'],
  ])('sends a buyer away from %s with a toast', async (path, message) => {
    mockFetch(signedInAs(makeUser()), emptyCatalog);
    visit(path);
    expect(await screen.findByText(message)).toBeVisible();
    expect(screen.getByText('Access denied')).toBeVisible();
    expect(window.location.pathname).toBe('/');
  });

  it.each([
    ['seller', '/seller/dashboard', 'Seller Dashboard'],
    ['driver', '/driver/dashboard', 'Driver Dashboard'],
    ['admin', '/seller/dashboard', 'Seller Dashboard'],
    ['admin', '/driver/dashboard', 'Driver Dashboard'],
    ['admin', '/admin', 'Admin Dashboard'],
  ] as const)('lets a %s into %s', async (role, path, heading) => {
    mockFetch(signedInAs(makeUser({ role, roles: ['buyer', role] })));
    visit(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(window.location.pathname).toBe(path);
  });
});
