// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AppRouter } from '../../../app/router';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
  signedInAs,
} from '../../../test-support/render';
import {
  LAMP,
  cartItemOf,
  checkoutBodyOfRequest,
  makeAddress,
  paymentIntentFor,
  putInCart,
} from '../../checkout/testing/fake-checkout';
import { saveCheckoutSession } from '../../checkout/checkout-session';
import { makeOrder } from '../../orders/testing/order-fixtures';
import type { Route } from '../../../test-support/render';
import { CHECKOUT_ALREADY_PAID_MESSAGE } from '@domain/checkout';

installDomStubs();
afterEach(() => {
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

const address = makeAddress();
const PAYMENT_ID = '60000000-0000-4000-8000-000000000001';
const confirmUrl = `/api/payments/${PAYMENT_ID}/confirm`;
const placed = makeOrder({ id: '10000000-0000-4000-8000-0000000000aa', orderNumber: 'ORD-NEW123' });

const createPayment: Route = (url, init) =>
  url === '/api/payments' && init?.method === 'POST'
    ? jsonResponse(paymentIntentFor(checkoutBodyOfRequest(init), [LAMP], [address]), 201)
    : undefined;

const errorBody = (message: string, code: string) => ({ message, code, requestId: 'r1' });

beforeEach(() => {
  putInCart(cartItemOf(LAMP, 2));
  saveCheckoutSession({
    isPickup: false,
    deliveryAddress: '1 Main St, Chicago, IL 60601',
    deliveryAddressId: address.id,
    deliveryNotes: '',
    scheduledPickupTime: {},
  });
});

function visitPayment(...routes: Route[]) {
  const fetchMock = mockFetch(signedInAs(makeUser()), ...routes);
  window.history.replaceState(null, '', '/payment');
  renderWithProviders(<AppRouter />);
  return fetchMock;
}

function confirmCalls(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.filter(([url]) => url === confirmUrl);
}

async function fillCard(number: string) {
  fireEvent.change(await screen.findByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/40' } });
  fireEvent.change(screen.getByLabelText('CVC'), { target: { value: '123' } });
  fireEvent.change(screen.getByLabelText('Name on card'), { target: { value: 'Eve Tester' } });
}

describe('/payment (docs/rules/screens-buyer.md, Cart and checkout screens; docs/rules/money.md, Payments)', () => {
  it('creates the payment once and shows the orders, the amount and the test numbers', async () => {
    const fetchMock = visitPayment(createPayment);
    expect(await screen.findByTestId('text-payment-amount')).toBeVisible();
    // 2 × 12.50 + 10.00 delivery.
    expect(screen.getByTestId('text-payment-amount').textContent).toBe('$35.00');
    expect(screen.getByText('Sam Seller')).toBeVisible();
    expect(screen.getByTestId('test-card-note').textContent).toContain('4242 4242 4242 4242');
    expect(screen.getByTestId('test-card-note').textContent).toContain('4000 0000 0000 0002');
    expect(screen.getByRole('button', { name: /Pay \$35\.00/ })).toBeEnabled();
    const creates = fetchMock.mock.calls.filter(([url]) => url === '/api/payments');
    expect(creates).toHaveLength(1);
    expect(checkoutBodyOfRequest(creates[0]?.[1])).toMatchObject({
      isPickup: false,
      deliveryAddressId: address.id,
      items: [{ productId: LAMP.id, quantity: 2, expectedPrice: '12.50' }],
    });
  });

  it('checks the card before sending it', async () => {
    const fetchMock = visitPayment(createPayment);
    fireEvent.click(await screen.findByRole('button', { name: /Pay/ }));
    expect(await screen.findByText('Card number is invalid')).toBeVisible();
    expect(screen.getByText('Expiry must be MM/YY')).toBeVisible();
    expect(screen.getByText('CVC must be 3 or 4 digits')).toBeVisible();
    expect(screen.getByText('Name on card is required')).toBeVisible();
    expect(confirmCalls(fetchMock)).toHaveLength(0);
  });

  it('says "Your card was declined." and lets the buyer try again', async () => {
    const fetchMock = visitPayment(createPayment, (url) =>
      url === confirmUrl
        ? jsonResponse(errorBody('Your card was declined.', 'payment_failed'), 402)
        : undefined,
    );
    await fillCard('4000 0000 0000 0002');
    fireEvent.click(screen.getByRole('button', { name: /Pay/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    const pay = screen.getByRole('button', { name: /Pay \$35\.00/ });
    expect(pay).toHaveProperty('disabled', false);
    expect(window.localStorage.getItem('cart')).not.toBeNull();
    expect(JSON.parse(String(confirmCalls(fetchMock)[0]?.[1]?.body))).toEqual({
      cardNumber: '4000000000000002',
      expiry: '12/40',
      cvc: '123',
      name: 'Eve Tester',
    });
    fireEvent.click(pay);
    await waitFor(() => expect(confirmCalls(fetchMock)).toHaveLength(2));
  });

  it('never pays twice for a double click', async () => {
    let release: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => {
      release = resolve;
    });
    const fetchMock = mockFetch(signedInAs(makeUser()), createPayment);
    const fallback = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (input === confirmUrl) return pending;
      if (!fallback) throw new Error('no fetch');
      return fallback(input, init);
    });
    window.history.replaceState(null, '', '/payment');
    renderWithProviders(<AppRouter />);

    await fillCard('4242424242424242');
    const pay = screen.getByRole('button', { name: /Pay/ });
    fireEvent.click(pay);
    fireEvent.click(pay);
    const form = pay.closest('form');
    if (form) fireEvent.submit(form);
    expect(await screen.findByRole('button', { name: /Processing payment/ })).toBeDisabled();
    expect(confirmCalls(fetchMock)).toHaveLength(1);
    release(jsonResponse(errorBody('Your card was declined.', 'payment_failed'), 402));
    expect(await screen.findByText('Your card was declined.')).toBeVisible();
    expect(confirmCalls(fetchMock)).toHaveLength(1);
  });

  it('clears the cart and the checkout keys and opens My Orders with the new order selected', async () => {
    visitPayment(
      createPayment,
      (url) =>
        url === confirmUrl
          ? jsonResponse({
              paymentId: PAYMENT_ID,
              provider: 'test',
              status: 'succeeded',
              amount: '35.00',
              message: null,
              orders: [placed],
            })
          : undefined,
      (url) => (url === '/api/orders?as=buyer' ? jsonResponse([makeOrder(), placed]) : undefined),
      (url) =>
        url.startsWith('/api/orders/') || url.startsWith('/api/users/') ? jsonResponse([]) : undefined,
    );
    await fillCard('4242 4242 4242 4242');
    fireEvent.click(screen.getByRole('button', { name: /Pay/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/buyer/orders'));
    expect(window.location.search).toBe(`?order=${placed.id}`);
    expect(window.localStorage.getItem('cart')).toBeNull();
    expect(window.sessionStorage.getItem('isPickup')).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible();
    await waitFor(() =>
      expect(screen.getByTestId(`card-order-${placed.id}`).getAttribute('aria-pressed')).toBe('true'),
    );
  });

  it('shows the out-of-stock message with a way back to the cart', async () => {
    visitPayment((url, init) =>
      url === '/api/payments' && init?.method === 'POST'
        ? jsonResponse(errorBody('Out of stock: Desk Lamp', 'conflict'), 409)
        : undefined,
    );
    expect((await screen.findByTestId('text-payment-conflict')).textContent).toBe('Out of stock: Desk Lamp');
    expect(screen.getByRole('link', { name: 'Back to Cart' }).getAttribute('href')).toBe('/cart');
  });

  it('on a reload of a checkout already being paid, points to My Orders instead of taking the card again', async () => {
    visitPayment((url, init) =>
      url === '/api/payments' && init?.method === 'POST'
        ? jsonResponse(errorBody(CHECKOUT_ALREADY_PAID_MESSAGE, 'conflict'), 409)
        : undefined,
    );
    expect((await screen.findByTestId('text-payment-already-paid')).textContent).toBe(
      CHECKOUT_ALREADY_PAID_MESSAGE,
    );
    expect(
      within(screen.getByRole('region', { name: 'Already paid' }))
        .getByRole('link', { name: 'My Orders' })
        .getAttribute('href'),
    ).toBe('/buyer/orders');
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.queryByText(/You have not been charged/)).toBeNull();
  });

  it('says why no order was placed when a late payment was re-priced and refunded', async () => {
    const repriced =
      'The prices of your checkout changed before your payment arrived, so no order was placed. The full amount has been refunded.';
    visitPayment(createPayment, (url) =>
      url === confirmUrl ? jsonResponse(errorBody(repriced, 'conflict'), 409) : undefined,
    );
    await fillCard('4242 4242 4242 4242');
    fireEvent.click(screen.getByRole('button', { name: /Pay/ }));
    expect((await screen.findByTestId('text-payment-conflict')).textContent).toBe(repriced);
  });

  it('sends a buyer who skipped the checkout back to it', async () => {
    window.sessionStorage.clear();
    visitPayment();
    expect(await screen.findByRole('heading', { name: 'Checkout first' })).toBeVisible();
    expect(
      within(screen.getByRole('region', { name: 'Checkout first' }))
        .getByRole('link', { name: 'Back to Checkout' })
        .getAttribute('href'),
    ).toBe('/checkout');
  });
});
