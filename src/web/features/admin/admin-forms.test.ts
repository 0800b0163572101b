import { describe, expect, it } from 'vitest';
import { changesOf } from './components/activity-tab';
import { AMOUNT_MESSAGE, checkCommissionForm, PERCENT_MESSAGE } from './components/commission-settings-tab';

const form = {
  baseCommissionRate: '10',
  minCommissionRate: '2',
  salesPriceTierAmount: '500',
  salesPriceTierReduction: '1.5',
  deliveryFeeTierAmount: '200.00',
  deliveryFeeTierReduction: '1',
  loyaltyTierAmount: '1000',
  loyaltyTierReduction: '0.25',
};

describe('the commission form (docs/rules/screens-work.md, Admin screens)', () => {
  it('divides percentages by 100 with 4 decimals and sends amounts with 2', () => {
    expect(checkCommissionForm(form)).toEqual({
      body: {
        baseCommissionRate: '0.1000',
        minCommissionRate: '0.0200',
        salesPriceTierAmount: '500.00',
        salesPriceTierReduction: '0.0150',
        deliveryFeeTierAmount: '200.00',
        deliveryFeeTierReduction: '0.0100',
        loyaltyTierAmount: '1000.00',
        loyaltyTierReduction: '0.0025',
      },
    });
  });

  it('says what is wrong with each field before asking the server', () => {
    expect(
      checkCommissionForm({
        ...form,
        baseCommissionRate: '100.5',
        salesPriceTierReduction: '1.234',
        deliveryFeeTierAmount: '-5',
        loyaltyTierAmount: '',
      }),
    ).toEqual({
      errors: {
        baseCommissionRate: PERCENT_MESSAGE,
        salesPriceTierReduction: PERCENT_MESSAGE,
        deliveryFeeTierAmount: AMOUNT_MESSAGE,
        loyaltyTierAmount: 'Required',
      },
    });
    expect(checkCommissionForm({ ...form, minCommissionRate: '12' })).toEqual({
      errors: { minCommissionRate: 'The minimum rate cannot be above the base rate' },
    });
  });
});

describe('the activity (docs/rules/screens-work.md, Admin screens)', () => {
  it('shows each value that changed, with labels people read', () => {
    expect(
      changesOf({
        before: { role: 'buyer', roles: ['buyer'] },
        after: { role: 'seller', roles: ['buyer', 'seller'] },
      }),
    ).toEqual(['Role: Buyer → Seller', 'Granted roles: Buyer → Buyer, Seller']);
    expect(changesOf({ before: { status: 'in-transit' }, after: { status: 'cancelled' } })).toEqual([
      'Status: In Transit → Cancelled',
    ]);
    expect(
      changesOf({
        before: { baseCommissionRate: '0.1000', minCommissionRate: '0.0200', loyaltyTierAmount: '1000.00' },
        after: { baseCommissionRate: '0.1500', minCommissionRate: '0.0200', loyaltyTierAmount: '1500.00' },
      }),
    ).toEqual(['Base commission rate: 10% → 15%', 'Loyalty tier amount: $1,000.00 → $1,500.00']);
    expect(changesOf({ before: null, after: { name: 'Lanterns' } })).toEqual(['Name: Lanterns']);
  });
});
