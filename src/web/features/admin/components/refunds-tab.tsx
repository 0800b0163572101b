import type { RefundNeedingAttention, RefundStatus } from '@domain/refunds';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { useAdminRefunds } from '../api/get-admin-refunds';
import { Cell, DataTable, ListState, rowClass, TimeCell } from './list-parts';

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
        minWidthClass="lg:min-w-[56rem]"
        columns={['Order', 'Amount', 'Reason', 'Status', 'Problem', 'Attempts', 'Since']}
      >
        {items.map((refund) => (
          <tr key={refund.id} className={rowClass}>
            <Cell className="whitespace-nowrap font-medium">
              {refund.orderNumber ?? `Payment ${refund.paymentId.slice(0, 8)}`}
            </Cell>
            <Cell label="Amount" className="whitespace-nowrap">
              {formatPrice(refund.amount)}
            </Cell>
            <Cell label="Reason">{refund.reason}</Cell>
            <Cell label="Status" className="whitespace-nowrap">
              {STATUS_LABELS[refund.status]}
            </Cell>
            <Cell label="Problem" className="break-words text-xs">
              {problemOf(refund)}
            </Cell>
            <Cell label="Attempts">
              <span className="block">{refund.attempts}</span>
              {refund.lastAttemptAt ? (
                <span className="block text-xs text-muted-foreground">
                  last {formatDateTime(refund.lastAttemptAt)}
                </span>
              ) : null}
            </Cell>
            <TimeCell at={refund.createdAt} label="Since" />
          </tr>
        ))}
      </DataTable>
    </ListState>
  );
}
