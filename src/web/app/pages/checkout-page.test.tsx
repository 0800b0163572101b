// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { AppRouter } from '../router';
import {
  installDomStubs,
  makeUser,
  mockFetch,
  renderWithProviders,
  signedInAs,
} from '../../test-support/render';
import { cartStore } from '../../features/cart/cart-store';
import {
  CHAIR,
  LAMP,
  SELLER_A,
  VASE,
  cartItemOf,
  checkoutRoutes,
  makeAddress,
  paymentIntentFor,
  checkoutBodyOfRequest,
  putInCart,
} from '../../features/checkout/testing/fake-checkout';
import { jsonResponse } from '../../test-support/render';
import type { Address } from '@domain/addresses';

installDomStubs();
afterEach(() => {
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

const products = [LAMP, CHAIR, VASE];
const home = makeAddress();
const office = makeAddress({
  id: '50000000-0000-4000-8000-000000000002',
  addressLine1: '200 Oak Ave',
  isPrimary: false,
});

function visitCheckout(addresses: Address[] = [office, home]) {
  const fetchMock = mockFetch(signedInAs(makeUser()), checkoutRoutes(products, addresses), (url, init) =>
    url === '/api/payments' && init?.method === 'POST'
      ? jsonResponse(paymentIntentFor(checkoutBodyOfRequest(init), products, addresses), 201)
      : undefined,
  );
  window.history.replaceState(null, '', '/checkout');
  renderWithProviders(<AppRouter />);
  return fetchMock;
}

const proceedButton = () => screen.getByRole('button', { name: /Proceed to Payment/ });
const pickupRadio = () => screen.getByRole('radio', { name: /Pickup/ });
const deliveryRadio = () => screen.getByRole('radio', { name: /Delivery/ });

describe('/checkout (docs/rules/screens-buyer.md, Cart and checkout screens)', () => {
  it('shows "Cart is Empty" with Continue Shopping for an empty cart', async () => {
    visitCheckout();
    expect(await screen.findByRole('heading', { name: 'Cart is Empty' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Continue Shopping' }).getAttribute('href')).toBe('/');
  });

  it('defaults to delivery with the primary address, prices on the server, and keeps the session keys', async () => {
    putInCart(cartItemOf(LAMP, 2), cartItemOf(CHAIR));
    visitCheckout();
    expect(await screen.findByRole('heading', { name: 'Delivery Method' })).toBeVisible();
    expect(deliveryRadio()).toHaveProperty('checked', true);
    // The chair offers no pickup: pickup cannot be chosen.
    expect(pickupRadio()).toHaveProperty('disabled', true);
    const primary = await screen.findByRole('radio', { name: /1 Main St/ });
    expect(primary).toHaveProperty('checked', true);
    expect(screen.getByRole('link', { name: /Manage Addresses/ }).getAttribute('href')).toBe('/addresses');

    // Two sellers: two orders, each with the $10.00 delivery fee
    // (docs/rules/catalog-and-orders.md, Checkout and orders).
    expect(await screen.findByTestId('text-total')).toBeVisible();
    await waitFor(() => expect(screen.getByTestId('text-total').textContent).toBe('$85.00'));
    expect(screen.getByTestId('text-delivery-fee').textContent).toBe('$20.00');
    await waitFor(() => expect(proceedButton()).toHaveProperty('disabled', false));

    fireEvent.change(screen.getByLabelText(/Delivery notes/), { target: { value: 'Ring twice' } });
    fireEvent.click(proceedButton());
    await waitFor(() => expect(window.location.pathname).toBe('/payment'));
    expect(window.sessionStorage.getItem('isPickup')).toBe('false');
    expect(window.sessionStorage.getItem('deliveryAddressId')).toBe(home.id);
    expect(window.sessionStorage.getItem('deliveryAddress')).toBe('1 Main St, Chicago, IL 60601');
    expect(window.sessionStorage.getItem('deliveryNotes')).toBe('Ring twice');
    expect(window.sessionStorage.getItem('scheduledPickupTime')).toBe('{}');
    // The payment screen is loaded on demand and starts the payment.
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment' })).toBeVisible();
  });

  it('disables Proceed to Payment without an address, with the spec message', async () => {
    putInCart(cartItemOf(LAMP));
    visitCheckout([]);
    expect(await screen.findByText('You have no saved addresses yet.')).toBeVisible();
    await waitFor(() =>
      expect(screen.getByTestId('text-proceed-reason').textContent).toBe(
        'Missing information: Please select a delivery address',
      ),
    );
    expect(proceedButton()).toHaveProperty('disabled', true);
  });

  it('says when the address kept from an earlier visit no longer exists', async () => {
    putInCart(cartItemOf(LAMP));
    window.sessionStorage.setItem('isPickup', 'false');
    window.sessionStorage.setItem('deliveryAddressId', '50000000-0000-4000-8000-000000000099');
    visitCheckout();
    await waitFor(() =>
      expect(screen.getByTestId('text-proceed-reason').textContent).toContain('Selected address not found'),
    );
    expect(proceedButton()).toHaveProperty('disabled', true);
  });

  it('asks for a pickup time, with no delivery fee for pickup', async () => {
    putInCart(cartItemOf(LAMP));
    visitCheckout();
    await waitFor(() => expect(pickupRadio()).toHaveProperty('disabled', false));
    fireEvent.click(pickupRadio());
    expect(await screen.findByRole('heading', { name: /Pickup Time/ })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Delivery Information' })).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('text-proceed-reason').textContent).toBe(
        'Missing information: Please select a pickup time from the seller',
      ),
    );
    expect(proceedButton()).toHaveProperty('disabled', true);
    await waitFor(() => expect(screen.getByTestId('text-delivery-fee').textContent).toBe('$0.00'));
    expect(await screen.findByText('700 E Grand Ave, Chicago, IL 60611')).toBeVisible();
    expect(await screen.findByRole('combobox', { name: 'Pickup time' })).toBeEnabled();
  });

  it('goes on with a pickup time chosen earlier and keeps it as JSON per seller', async () => {
    putInCart(cartItemOf(LAMP));
    window.sessionStorage.setItem('isPickup', 'true');
    window.sessionStorage.setItem(
      'scheduledPickupTime',
      JSON.stringify({ [SELLER_A]: '2026-03-02T15:30:00.000Z' }),
    );
    visitCheckout();
    await waitFor(() => expect(proceedButton()).toHaveProperty('disabled', false));
    expect(pickupRadio()).toHaveProperty('checked', true);
    fireEvent.click(proceedButton());
    await waitFor(() => expect(window.location.pathname).toBe('/payment'));
    expect(window.sessionStorage.getItem('isPickup')).toBe('true');
    expect(JSON.parse(window.sessionStorage.getItem('scheduledPickupTime') ?? '')).toEqual({
      [SELLER_A]: '2026-03-02T15:30:00.000Z',
    });
    expect(window.sessionStorage.getItem('deliveryAddressId')).toBe('');
  });

  it('falls back to delivery when an item without pickup joins the cart', async () => {
    putInCart(cartItemOf(LAMP), cartItemOf(VASE));
    visitCheckout();
    await waitFor(() => expect(pickupRadio()).toHaveProperty('disabled', false));
    fireEvent.click(pickupRadio());
    expect(pickupRadio()).toHaveProperty('checked', true);

    act(() => cartStore.add(cartItemOf(CHAIR)));
    await waitFor(() => expect(deliveryRadio()).toHaveProperty('checked', true));
    expect(pickupRadio()).toHaveProperty('disabled', true);
    expect(await screen.findByRole('heading', { name: 'Delivery Information' })).toBeVisible();
  });

  it('shows a changed price and takes it into the cart when accepted', async () => {
    putInCart({ ...cartItemOf(LAMP), price: '10.00' });
    visitCheckout();
    expect(await screen.findByText('The price of Desk Lamp changed')).toBeVisible();
    expect(proceedButton()).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Accept New Prices' }));
    await waitFor(() => expect(proceedButton()).toHaveProperty('disabled', false));
    expect(cartStore.getSnapshot()[0]?.price).toBe('12.50');
  });
});
