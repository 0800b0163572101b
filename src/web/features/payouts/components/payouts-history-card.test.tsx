// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { MyPayouts } from '@domain/payouts';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { PayoutsHistoryCard } from './payouts-history-card';

installDomStubs();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const payout = (orderNumber: string, status: MyPayouts['payouts'][number]['status'], amount: string) => ({
  id: `id-${orderNumber}`,
  orderId: `order-${orderNumber}`,
  orderNumber,
  kind: 'seller' as const,
  amount,
  status,
  createdAt: '2026-11-20T15:00:00.000Z',
  paidAt: status === 'paid' || status === 'reversed' ? '2026-11-20T16:00:00.000Z' : null,
  reversedAt: status === 'reversed' ? '2026-11-21T16:00:00.000Z' : null,
});

describe('the payouts card (docs/decisions/0013-money-movement.md)', () => {
  it('shows owed, paid out and reversed, and each order with the state of its payout', async () => {
    mockFetch((url) =>
      url === '/api/payouts'
        ? jsonResponse({
            owed: '12.00',
            paidOut: '1250.50',
            reversed: '3.25',
            payouts: [
              payout('ORD-OWED01', 'owed', '12.00'),
              payout('ORD-PAID01', 'paid', '1250.50'),
              payout('ORD-BACK01', 'reversed', '3.25'),
            ],
          } satisfies MyPayouts)
        : undefined,
    );
    renderWithProviders(<PayoutsHistoryCard />);
    expect(await screen.findByTestId('text-payouts-owed')).toHaveTextContent('$12.00');
    expect(screen.getByTestId('text-payouts-paid')).toHaveTextContent('$1,250.50');
    expect(screen.getByTestId('text-payouts-reversed')).toHaveTextContent('$3.25');
    expect(within(screen.getByTestId('row-payout-ORD-OWED01')).getByText('Owed')).toBeVisible();
    expect(within(screen.getByTestId('row-payout-ORD-PAID01')).getByText('Paid out')).toBeVisible();
    expect(within(screen.getByTestId('row-payout-ORD-BACK01')).getByText('Reversed')).toBeVisible();
  });

  it('says so when there are no payouts yet', async () => {
    mockFetch((url) =>
      url === '/api/payouts'
        ? jsonResponse({ owed: '0.00', paidOut: '0.00', reversed: '0.00', payouts: [] })
        : undefined,
    );
    renderWithProviders(<PayoutsHistoryCard />);
    expect(await screen.findByText('No payouts yet. They start when an order is finished.')).toBeVisible();
  });
});
