import type { ReactNode } from 'react';
import { fulfilmentOf } from '@domain/order-status';
import type { Order } from '@domain/orders';
import { formatPrice } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { formatRatePercent } from '../order-view';

function Row({
  label,
  value,
  strong,
  className,
}: {
  label: ReactNode;
  value: string;
  strong?: boolean;
  className?: string;
}) {
  return (
    <div className={cn('flex justify-between gap-3', strong && 'font-semibold', className)}>
      <dt className={cn(!strong && 'text-muted-foreground')}>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * A driver sees only their own earnings, never the buyer's prices
 * (docs/rules/accounts.md, Roles and permissions).
 */
export function DriverEarnings({ order }: { order: Order }) {
  return (
    // A <dl> holds only its rows: the note goes after it.
    <div className="flex flex-col gap-2 text-sm">
      <dl>
        <Row label="Your earnings" value={formatPrice(order.driverEarnings)} strong />
      </dl>
      <p className="text-xs text-muted-foreground">The delivery fee after the platform commission.</p>
    </div>
  );
}

/**
 * Payment details (subtotal, delivery fee, total) and the earnings breakdown with the platform
 * commission and its rates, as stored on the order
 * (docs/rules/screens-buyer.md, Order screens; docs/rules/money.md, Fees and commission).
 */
export function OrderPaymentDetails({ order }: { order: Order }) {
  const withDriver = fulfilmentOf(order) === 'driver';
  const money = (value: string | undefined) => formatPrice(value ?? '0');
  const rate = (value: string | undefined) => (value ? ` (${formatRatePercent(value)})` : '');
  return (
    <div className="flex flex-col gap-5 text-sm">
      <dl className="flex flex-col gap-2">
        <Row label="Subtotal" value={money(order.productSubtotal)} />
        <Row label="Delivery fee" value={money(order.deliveryFee)} />
        <Row className="border-t pt-2" label="Total" value={money(order.total)} strong />
        {order.refundState !== 'none' && order.refundedAmount ? (
          <Row label="Refunded" value={`−${money(order.refundedAmount)}`} />
        ) : null}
      </dl>
      <div className="flex flex-col gap-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          Earnings breakdown
        </h4>
        <dl className="flex flex-col gap-2">
          <Row
            label={order.sellerDelivery ? 'Seller earnings (incl. delivery)' : 'Seller earnings'}
            value={money(order.sellerEarnings)}
          />
          {withDriver ? <Row label="Driver earnings" value={money(order.driverEarnings)} /> : null}
          <Row
            label={`Sales commission${rate(order.salesCommissionRate)}`}
            value={money(order.purchasePlatformFee)}
          />
          {withDriver ? (
            <Row
              label={`Delivery commission${rate(order.deliveryCommissionRate)}`}
              value={money(order.deliveryPlatformFee)}
            />
          ) : order.sellerDelivery ? (
            // The seller keeps the whole fee of a delivery they make themselves: the sales commission is the
            // only one (docs/rules/money.md, Fees and commission; docs/rules/known-differences.md, Known
            // differences).
            <Row label="Delivery commission (none: delivered by the seller)" value={money('0')} />
          ) : null}
          <Row
            className="border-t pt-2"
            label="Platform commission"
            value={money(order.platformFee)}
            strong
          />
        </dl>
        {order.sellerDelivery ? (
          <p className="text-xs text-muted-foreground">
            Delivered by the seller: this order carries only the sales commission, on the product total.
          </p>
        ) : null}
      </div>
    </div>
  );
}
