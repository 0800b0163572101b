import { isDisputeOpen, type DisputeStatus, type OrderDispute } from '@domain/disputes';
import { Badge, type BadgeProps } from '../../../components/ui/badge';
import { formatDateTime, formatPrice } from '../../../lib/format';

const LABELS: Record<DisputeStatus, string> = {
  warning_needs_response: 'Disputed',
  warning_under_review: 'Disputed',
  needs_response: 'Disputed',
  under_review: 'Disputed',
  won: 'Dispute won',
  lost: 'Dispute lost',
  warning_closed: 'Dispute closed',
  prevented: 'Dispute closed',
};

const VARIANT: Record<DisputeStatus, BadgeProps['variant']> = {
  warning_needs_response: 'destructive',
  warning_under_review: 'destructive',
  needs_response: 'destructive',
  under_review: 'destructive',
  won: 'success',
  lost: 'destructive',
  warning_closed: 'secondary',
  prevented: 'secondary',
};

/**
 * A chargeback on the order's payment (docs/decisions/0018-money-against-stripe.md, Disputes):
 * "Disputed" while open, then won or lost. The same for every role; the amount and the evidence
 * deadline are in `OrderDisputeNote`, which a driver's answer does not carry.
 */
export function OrderDisputeBadge({
  dispute,
  className,
}: {
  dispute: OrderDispute | null;
  className?: string;
}) {
  if (!dispute) return null;
  return (
    <Badge variant={VARIANT[dispute.status]} className={className}>
      {LABELS[dispute.status]}
    </Badge>
  );
}

/** "Disputed: $25.00 · Evidence due <date>" for the buyer, the seller and the admin; nothing for a driver. */
export function OrderDisputeNote({ dispute }: { dispute: OrderDispute | null }) {
  if (!dispute?.amount) return null;
  const due = isDisputeOpen(dispute.status) ? formatDateTime(dispute.evidenceDueBy) : null;
  return (
    <span className="block text-sm">
      {LABELS[dispute.status]}: {formatPrice(dispute.amount)}
      {due ? <span className="font-medium"> · Evidence due {due}</span> : null}
    </span>
  );
}
