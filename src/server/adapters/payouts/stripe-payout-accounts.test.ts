import { describe, expect, it } from 'vitest';
import { payoutStatusOf } from './stripe-payout-accounts';

/** Readiness follows Stripe's transfers capability and payouts_enabled (docs/decisions/0018-money-against-stripe.md, Failed payouts). */
describe('payoutStatusOf', () => {
  const working = {
    id: 'acct_1',
    details_submitted: true,
    payouts_enabled: true,
    capabilities: { transfers: 'active' },
    requirements: { currently_due: [], past_due: [], disabled_reason: null },
  };

  it('is active for a working account even when Stripe lists requirements due by a later deadline', () => {
    expect(payoutStatusOf(working)).toBe('active');
    expect(
      payoutStatusOf({
        ...working,
        requirements: { ...working.requirements, currently_due: ['individual.id_number'] },
      }),
    ).toBe('active');
  });

  it('is not active while the transfers capability is not, even with payouts enabled', () => {
    expect(payoutStatusOf({ ...working, capabilities: { transfers: 'pending' } })).toBe('pending');
    expect(payoutStatusOf({ ...working, capabilities: { transfers: 'inactive' } })).toBe('pending');
    expect(payoutStatusOf({ ...working, capabilities: {} })).toBe('pending');
    expect(payoutStatusOf({ ...working, payouts_enabled: false })).toBe('pending');
  });

  it('is restricted once requirements are past due or Stripe disabled the account', () => {
    expect(
      payoutStatusOf({
        ...working,
        requirements: { ...working.requirements, past_due: ['external_account'] },
      }),
    ).toBe('restricted');
    expect(
      payoutStatusOf({
        ...working,
        requirements: { ...working.requirements, disabled_reason: 'rejected.fraud' },
      }),
    ).toBe('restricted');
  });
});
