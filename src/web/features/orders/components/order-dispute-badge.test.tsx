// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setMarketplaceTimeZone } from '../../../lib/format';
import { asDriverSeesIt, makeOrder } from '../testing/order-fixtures';
import { OrderDisputeBadge, OrderDisputeNote } from './order-dispute-badge';

describe('an order whose payment is disputed (docs/decisions/0018-money-against-stripe.md, Disputes)', () => {
  beforeEach(() => setMarketplaceTimeZone('America/Chicago'));
  afterEach(cleanup);

  const disputed = makeOrder({
    dispute: { status: 'needs_response', amount: '1250.00', evidenceDueBy: '2026-03-09T23:59:59.000Z' },
  });

  it('shows Disputed with the amount and the evidence deadline to those who see prices', () => {
    render(
      <>
        <OrderDisputeBadge dispute={disputed.dispute} />
        <OrderDisputeNote dispute={disputed.dispute} />
      </>,
    );
    expect(screen.getByText('Disputed', { exact: true })).toBeVisible();
    const note = screen.getByText(/^Disputed: /);
    expect(note).toHaveTextContent('$1,250.00');
    expect(note).toHaveTextContent(/Evidence due .*Mar.* 9/);
  });

  it('shows the driver Disputed alone', () => {
    const driver = asDriverSeesIt(disputed);
    render(
      <>
        <OrderDisputeBadge dispute={driver.dispute} />
        <OrderDisputeNote dispute={driver.dispute} />
      </>,
    );
    expect(screen.getByText('Disputed', { exact: true })).toBeVisible();
    expect(screen.queryByText(/^Disputed: /)).toBeNull();
    expect(screen.queryByText(/\$/)).toBeNull();
  });

  it('shows what came of it, and nothing when there is no dispute', () => {
    const won = makeOrder({ dispute: { status: 'won', amount: '1250.00', evidenceDueBy: null } });
    render(
      <>
        <OrderDisputeBadge dispute={won.dispute} />
        <OrderDisputeNote dispute={won.dispute} />
        <OrderDisputeBadge dispute={null} />
      </>,
    );
    // One badge: the dispute's, none for the order without one.
    expect(screen.getAllByText(/^(Disputed|Dispute (won|lost|closed))$/)).toHaveLength(1);
    expect(screen.getByText('Dispute won', { exact: true })).toBeVisible();
    const note = screen.getByText(/^Dispute won: /);
    expect(note).toHaveTextContent('$1,250.00');
    expect(note).not.toHaveTextContent('Evidence');
  });
});
