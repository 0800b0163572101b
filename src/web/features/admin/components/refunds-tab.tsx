import type { RefundNeedingAttention, RefundStatus } from '@domain/refunds';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { useAdminRefunds } from '../api/get-admin-refunds';
import { DataTable, ListState, tdClass, TimeCell } from './list-parts';

const STATUS_LABELS: Record<RefundStatus, string> = {
  pending: 'Waiting',
  requires_action: 'Needs action',
  failed: 'Failed',
  succeeded: 'Refunded',
  canceled: 'Cancelled',
};

/** What went wrong, in the words the provider or the server gave: the provider's reason first. */
function problemOf(refund: Pick<RefundNeedingAttention, 'status' | 'failureReason' | 'lastError'>): string {
  if (refund.failureReason) return refund.failureReason.replace(/_/g, ' ');
  if (refund.lastError) return refund.lastError;
  if (refund.status === 'requires_action') return 'The buyer’s bank asks for an action';
  return 'Waiting for the payment provider';
}

/**
 * Refunds: the refunds that failed or still wait (docs/decisions/0013-money-movement.md, Payments
 * and refunds): which order, how much, why it was refunded, what went wrong, how often it was
 * tried and since when the buyer waits. A failed refund needs a person; waiting ones are tried
 * again on the server's timer.
 */
export function RefundsTab() {
  const refunds = useAdminRefunds();
  const items = refunds.data?.refunds ?? [];
  return (
    <ListState
      query={refunds}
      isEmpty={items.length === 0}
      emptyText="No refund is waiting or has failed"
      what="refunds"
    >
      <DataTable
        caption="Refunds that failed or still wait"
        minWidthClass="min-w-[56rem]"
        columns={['Order', 'Amount', 'Reason', 'Status', 'Problem', 'Attempts', 'Since']}
      >
        {items.map((refund) => (
          <tr key={refund.id} data-testid={`row-refund-${refund.id}`}>
            <td className={`${tdClass} whitespace-nowrap font-medium`}>
              {refund.orderNumber ?? `Payment ${refund.paymentId.slice(0, 8)}`}
            </td>
            <td className={`${tdClass} whitespace-nowrap`}>{formatPrice(refund.amount)}</td>
            <td className={tdClass}>{refund.reason}</td>
            <td className={`${tdClass} whitespace-nowrap`}>{STATUS_LABELS[refund.status]}</td>
            <td className={`${tdClass} break-words text-xs`}>{problemOf(refund)}</td>
            <td className={tdClass}>
              <span className="block">{refund.attempts}</span>
              {refund.lastAttemptAt ? (
                <span className="block text-xs text-muted-foreground">
                  last {formatDateTime(refund.lastAttemptAt)}
                </span>
              ) : null}
            </td>
            <TimeCell at={refund.createdAt} />
          </tr>
        ))}
      </DataTable>
    </ListState>
  );
}
