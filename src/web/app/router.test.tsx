// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
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

describe('route table (spec buyer §2)', () => {
  it('shows the landing page at / to a visitor', async () => {
    mockFetch(signedOut);
    visit('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Fast & Reliable Delivery Marketplace' }),
    ).toBeTruthy();
    expect(screen.getByTestId('button-sign-in')).toBeTruthy();
  });

  it('shows the support page to a visitor', async () => {
    mockFetch(signedOut);
    visit('/support');
    expect(await screen.findByRole('heading', { level: 1, name: 'Support & Contact' })).toBeTruthy();
    expect(screen.getByTestId('button-sign-in')).toBeTruthy();
  });

  it('has no signed-in pages for a visitor', async () => {
    mockFetch(signedOut);
    visit('/profile');
    expect(await screen.findByText('Did you forget to add the page to the router?')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
  });

  it('shows the home page at / to a signed-in user', async () => {
    mockFetch(signedInAs(makeUser()), emptyCatalog);
    visit('/');
    expect(await screen.findByRole('heading', { name: 'Featured Products' })).toBeTruthy();
    expect(await screen.findByText('No products found')).toBeTruthy();
    expect(screen.getByTestId('link-my-orders')).toBeTruthy();
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
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
  });

  it('loads the payment page on demand', async () => {
    mockFetch(signedInAs(makeUser()));
    visit('/payment');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment' })).toBeTruthy();
  });

  it('shows the 404 page for an unknown path when signed in', async () => {
    mockFetch(signedInAs(makeUser()));
    visit('/no/such/page');
    expect(await screen.findByText('Did you forget to add the page to the router?')).toBeTruthy();
  });

  it('shows "Cart is Empty" at checkout with an empty cart', async () => {
    mockFetch(signedInAs(makeUser()));
    visit('/checkout');
    expect(await screen.findByRole('heading', { name: 'Cart is Empty' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue Shopping' }).getAttribute('href')).toBe('/');
  });
});

describe('role gates (spec seller §6)', () => {
  it.each([
    ['/seller/dashboard', 'You need to be a seller to access this page'],
    ['/driver/dashboard', 'You need to be a driver to access this page'],
    ['/admin', 'You must be an admin to access this page'],
  ])('sends a buyer away from %s with a toast', async (path, message) => {
    mockFetch(signedInAs(makeUser()), emptyCatalog);
    visit(path);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('Access denied')).toBeTruthy();
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
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(window.location.pathname).toBe(path);
  });
});
