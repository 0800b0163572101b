import type { CommissionSettingsText } from '@domain/fees';

export type CommissionField = keyof CommissionSettingsText;

/** The form's fields in the order it shows them, with their labels and hints. */
export const COMMISSION_FIELDS: {
  name: CommissionField;
  label: string;
  kind: 'rate' | 'amount';
  hint: string;
}[] = [
  {
    name: 'baseCommissionRate',
    label: 'Base commission rate (%)',
    kind: 'rate',
    hint: 'The rate before any reduction, on products and on driver delivery fees.',
  },
  {
    name: 'minCommissionRate',
    label: 'Minimum commission rate (%)',
    kind: 'rate',
    hint: 'No reduction takes a rate below this.',
  },
  {
    name: 'salesPriceTierAmount',
    label: 'Sales price tier amount ($)',
    kind: 'amount',
    hint: 'Each whole amount of an order’s products lowers its sales rate. 0 switches the tier off.',
  },
  {
    name: 'salesPriceTierReduction',
    label: 'Sales price tier reduction (%)',
    kind: 'rate',
    hint: 'Taken off the sales rate per sales price tier.',
  },
  {
    name: 'deliveryFeeTierAmount',
    label: 'Delivery fee tier amount ($)',
    kind: 'amount',
    hint: 'Each whole amount of a delivery fee lowers its delivery rate. 0 switches the tier off.',
  },
  {
    name: 'deliveryFeeTierReduction',
    label: 'Delivery fee tier reduction (%)',
    kind: 'rate',
    hint: 'Taken off the delivery rate per delivery fee tier.',
  },
  {
    name: 'loyaltyTierAmount',
    label: 'Loyalty tier amount ($)',
    kind: 'amount',
    hint: 'Each whole amount of a seller’s 30-day sales earns the loyalty reduction. 0 switches it off.',
  },
  {
    name: 'loyaltyTierReduction',
    label: 'Loyalty tier reduction (%)',
    kind: 'rate',
    hint: 'Taken off the sales rate per loyalty tier, down to the minimum.',
  },
];
