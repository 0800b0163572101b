import { useId, type ReactNode } from 'react';
import { Award, Percent, Truck } from 'lucide-react';
import { loyaltyDiscount, parseCommissionSettings, type CommissionRates } from '@domain/fees';
import { formatUsd, parseCents } from '@domain/money';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useCommissionSettings } from '../api/get-commission-settings';
import { useSeller30DaySales } from '../api/get-earnings';
import { formatAmount, formatPercent } from '../format';

/** Spec text (docs/rules/screens-work.md, Seller screens). */
export const COMMISSION_SETTINGS_FAILED =
  'Failed to load commission settings. Please refresh the page or contact support.';

function Part({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="flex flex-col gap-2 rounded-lg border p-4" aria-labelledby={headingId}>
      <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold">
        <span className="flex size-7 items-center justify-center rounded-md bg-accent text-accent-foreground [&_svg]:size-4">
          {icon}
        </span>
        {title}
      </h3>
      <div className="text-sm text-muted-foreground">{children}</div>
    </section>
  );
}

/** "every $500.00 of …" or, for a tier switched off (amount 0), nothing to earn. */
function tierText(amount: number, reduction: number, what: string): string {
  if (amount <= 0 || reduction <= 0) return 'No tiers apply at the moment.';
  return `It drops by ${formatPercent(reduction)} for every ${formatUsd(amount)} of ${what}.`;
}

/** The current loyalty discount: min(floor(30-day sales / tier) × reduction, base − min). */
export function currentLoyaltyDiscount(rates: CommissionRates, sales30Days: string): number {
  return loyaltyDiscount(parseCents(sales30Days), rates);
}

/**
 * The commission structure explained with the marketplace's current settings (docs/rules/money.md, Fees and
 * commission; docs/rules/screens-work.md, Seller screens): the tiered sales commission, the delivery
 * commission and the loyalty reward with this seller's current discount.
 */
export function CommissionStructure({ sellerId }: { sellerId: string }) {
  const settings = useCommissionSettings();
  const sales = useSeller30DaySales(sellerId);
  const rates = settings.data ? parseCommissionSettings(settings.data) : undefined;

  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} as="h2">
          Commission Structure
        </CardTitle>
        <CardDescription>
          What the marketplace keeps from each order, worked out when the order is paid.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {COMMISSION_SETTINGS_FAILED}
          </p>
        ) : !rates ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading commission settings...
          </p>
        ) : (
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
            <Part icon={<Percent />} title="Tiered sales commission">
              <p>
                {formatPercent(rates.baseCommissionRate)} of an order&apos;s product total.{' '}
                {tierText(rates.salesPriceTierAmount, rates.salesPriceTierReduction, 'the order')} It never
                goes below {formatPercent(rates.minCommissionRate)}.
              </p>
            </Part>
            <Part icon={<Truck />} title="Delivery commission">
              <p>
                When a driver delivers, {formatPercent(rates.baseCommissionRate)} of the delivery fee goes to
                the marketplace and the rest to the driver.{' '}
                {tierText(rates.deliveryFeeTierAmount, rates.deliveryFeeTierReduction, 'delivery fee')}
              </p>
              {/* A seller-delivered order carries the sales commission and no delivery commission
                  (docs/rules/money.md, Fees and commission; docs/rules/known-differences.md, Known differences). */}
              <p className="mt-2" data-testid="text-seller-delivered-commission">
                Orders you deliver yourself carry only the sales commission above, on the product total; there
                is no delivery commission, so you keep your whole delivery fee. Pickups have no delivery fee.
              </p>
            </Part>
            <Part icon={<Award />} title="Loyalty reward">
              <p>
                {rates.loyaltyTierAmount > 0 && rates.loyaltyTierReduction > 0
                  ? `Every ${formatUsd(rates.loyaltyTierAmount)} you sold in the last 30 days takes ${formatPercent(rates.loyaltyTierReduction)} off your sales commission, up to ${formatPercent(Math.max(0, rates.baseCommissionRate - rates.minCommissionRate))}.`
                  : 'There is no loyalty reward at the moment.'}
              </p>
              <p className="mt-2 text-foreground">
                Your current loyalty discount:{' '}
                <strong className="tabular-nums" data-testid="text-loyalty-discount">
                  {sales.data
                    ? formatPercent(currentLoyaltyDiscount(rates, sales.data.total))
                    : sales.isError
                      ? '—'
                      : '…'}
                </strong>
                {sales.data ? (
                  <span className="text-muted-foreground">
                    {' '}
                    (30-day sales {formatAmount(sales.data.total)})
                  </span>
                ) : null}
              </p>
            </Part>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
