import { ExternalLink } from 'lucide-react';
import type { AdminDispute, DisputeStatus } from '@domain/disputes';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { useAdminDisputes } from '../api/get-admin-disputes';
import { Cell, DataTable, ListState, rowClass, TimeCell } from './list-parts';

const STATUS_LABELS: Record<DisputeStatus, string> = {
  warning_needs_response: 'Inquiry: needs response',
  warning_under_review: 'Inquiry: under review',
  warning_closed: 'Inquiry closed',
  needs_response: 'Needs response',
  under_review: 'Under review',
  won: 'Won',
  lost: 'Lost',
  prevented: 'Prevented',
};

/** The evidence deadline of an open dispute; what came of a closed one. */
function deadlineOf(dispute: AdminDispute): string {
  if (!dispute.isOpen) return dispute.closedAt ? `Closed ${formatDateTime(dispute.closedAt)}` : 'Closed';
  return dispute.evidenceDueBy ? (formatDateTime(dispute.evidenceDueBy) ?? '') : 'No deadline';
}

/**
 * Disputes (docs/decisions/0018-money-against-stripe.md, Disputes): chargebacks on payments, open
 * ones first with the soonest evidence deadline first — the orders the payment paid for, the
 * amount and the fee withdrawn, the card holder's reason, where it stands, and Stripe's page of
 * the dispute, where the evidence is submitted.
 */
export function DisputesTab() {
  const disputes = useAdminDisputes();
  const items = disputes.data?.disputes ?? [];
  return (
    <ListState query={disputes} isEmpty={items.length === 0} emptyText="No dispute so far" what="disputes">
      <DataTable
        caption="Disputes, open ones first"
        minWidthClass="lg:min-w-[56rem]"
        columns={['Orders', 'Amount', 'Fee', 'Reason', 'Status', 'Evidence due', 'Opened', '']}
      >
        {items.map((dispute) => (
          <tr key={dispute.id} className={rowClass}>
            <Cell className="font-medium">
              {dispute.orderNumbers.length > 0
                ? dispute.orderNumbers.join(', ')
                : `Payment ${dispute.paymentId.slice(0, 8)}`}
            </Cell>
            <Cell label="Amount" className="whitespace-nowrap">
              {formatPrice(dispute.amount)}
            </Cell>
            <Cell label="Fee" className="whitespace-nowrap">
              {formatPrice(dispute.fee)}
            </Cell>
            <Cell label="Reason">{dispute.reason.replace(/_/g, ' ')}</Cell>
            <Cell label="Status" className="whitespace-nowrap">
              {STATUS_LABELS[dispute.status]}
            </Cell>
            <Cell
              label="Evidence due"
              className={
                dispute.isOpen ? 'whitespace-nowrap font-medium' : 'whitespace-nowrap text-muted-foreground'
              }
            >
              {deadlineOf(dispute)}
            </Cell>
            <TimeCell at={dispute.createdAt} label="Opened" />
            <Cell>
              {dispute.dashboardUrl ? (
                <a
                  href={dispute.dashboardUrl}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 whitespace-nowrap text-primary underline-offset-4 hover:underline"
                >
                  Open in Stripe
                  <ExternalLink className="size-3.5" aria-hidden="true" />
                </a>
              ) : null}
            </Cell>
          </tr>
        ))}
      </DataTable>
    </ListState>
  );
}
