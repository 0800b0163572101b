import { Undo2 } from 'lucide-react';
import type { OrderRefund } from '@domain/orders';
import { formatPrice } from '../../../lib/format';
import { formatDateTime } from '../order-view';

/**
 * The order's refunds in its timeline, oldest first, each with its time and, for everyone but the
 * driver (who sees no prices), its amount (docs/decisions/0018-money-against-stripe.md, Refunds).
 */
export function OrderRefundsList({ refunds }: { refunds: readonly OrderRefund[] | undefined }) {
  if (!refunds || refunds.length === 0) return null;
  return (
    <ol className="mt-4 flex flex-col gap-2 border-t pt-4" aria-label="Refunds">
      {refunds.map((refund) => {
        const time = formatDateTime(refund.createdAt);
        return (
          <li key={refund.id} className="flex gap-3">
            <span
              aria-hidden="true"
              className="flex size-6 shrink-0 items-center justify-center rounded-full border-2 border-amber-500 text-amber-700 dark:text-amber-300"
            >
              <Undo2 className="size-3.5" />
            </span>
            <div className="flex min-w-0 flex-col">
              <span className="text-sm font-medium">
                {refund.amount ? `Refunded ${formatPrice(refund.amount)}` : 'Refund made'}
              </span>
              {time ? (
                <time dateTime={refund.createdAt} className="text-xs text-muted-foreground">
                  {time}
                </time>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
