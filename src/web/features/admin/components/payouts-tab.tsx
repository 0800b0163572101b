import { Download, Landmark, RotateCw, Wallet } from 'lucide-react';
import { PAYOUT_STATUS_LABEL, type FailedPayout } from '@domain/payouts';
import { StatCard } from '../../../components/stat-card';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useAdminPayouts } from '../api/get-admin-payouts';
import { useRetryPayout } from '../api/retry-payout';
import { Cell, DataTable, ListState, rowClass, TimeCell } from './list-parts';

/**
 * Payouts (docs/decisions/0013-money-movement.md, Transfers and the ledger): the platform's balance
 * (fees earned on finished orders less fees given back by refunds, the provider's fees, dispute fees
 * and losses), what is owed to sellers and drivers, the ledger as a CSV file, the payouts the
 * provider refused or that keep failing, each of which the admin may send again, and the losses the
 * platform bore: shares of refunded orders the provider refused to reverse
 * (docs/decisions/0018-money-against-stripe.md: Refunds; Failed payouts; Platform balance).
 */
export function PayoutsTab() {
  const payouts = useAdminPayouts();
  const data = payouts.data;
  const failed = data?.failed ?? [];
  const losses = data?.losses ?? [];
  return (
    <div className="flex flex-col gap-6">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <StatCard
          title="Platform Balance"
          value={data ? formatPrice(data.platformBalance) : '—'}
          description="Fees of finished orders less fees refunded, card and dispute fees and losses borne"
          icon={<Landmark />}
        />
        <StatCard
          title="Owed to Sellers and Drivers"
          value={data ? formatPrice(data.owedPayouts) : '—'}
          description="Waiting for a payout account, or being sent"
          icon={<Wallet />}
        />
      </div>
      <div>
        <a
          href="/api/admin/ledger.csv"
          download
          className="inline-flex items-center gap-2 rounded-md border px-3 py-2 text-sm font-medium hover:bg-accent"
        >
          <Download aria-hidden="true" className="size-4" />
          Export Ledger (CSV)
        </a>
      </div>
      <ListState
        query={payouts}
        isEmpty={failed.length === 0}
        emptyText="No payout has failed"
        what="payouts"
      >
        <DataTable
          caption="Payouts that failed or keep failing"
          minWidthClass="lg:min-w-[48rem]"
          columns={['Order', 'Paid to', 'Amount', 'Status', 'Problem', 'Attempts', 'Since', 'Actions']}
        >
          {failed.map((payout) => (
            <tr key={payout.id} className={rowClass}>
              <Cell className="whitespace-nowrap font-medium">{payout.orderNumber}</Cell>
              <Cell label="Paid to">
                {payout.userName} ({payout.kind})
              </Cell>
              <Cell label="Amount" className="whitespace-nowrap">
                {formatPrice(payout.amount)}
              </Cell>
              <Cell label="Status" className="whitespace-nowrap">
                {PAYOUT_STATUS_LABEL[payout.status]}
                {payout.nextAttemptAt ? (
                  <span className="block text-xs text-muted-foreground">
                    Next try {formatDateTime(payout.nextAttemptAt)}
                  </span>
                ) : null}
              </Cell>
              <Cell label="Problem" className="break-words text-xs">
                {payout.lastError ?? '—'}
              </Cell>
              <Cell label="Attempts">{payout.attempts}</Cell>
              <TimeCell at={payout.createdAt} label="Since" />
              <Cell label="Actions">
                <RetryPayoutButton payout={payout} />
              </Cell>
            </tr>
          ))}
        </DataTable>
      </ListState>
      <ListState
        query={payouts}
        isEmpty={losses.length === 0}
        emptyText="No loss: every refunded share was taken back and no dispute took refunded money again"
        what="losses"
      >
        <DataTable
          caption="Losses borne by the platform (reversals the provider refused, refunded money lost disputes took again)"
          minWidthClass="lg:min-w-[48rem]"
          columns={['Order', 'Paid to', 'Amount', "Provider's message", 'When']}
        >
          {losses.map((loss) => (
            <tr key={loss.id} className={rowClass}>
              <Cell className="whitespace-nowrap font-medium">{loss.orderNumber}</Cell>
              <Cell label="Paid to">
                {loss.userName} ({loss.kind})
              </Cell>
              <Cell label="Amount" className="whitespace-nowrap">
                {formatPrice(loss.amount)}
              </Cell>
              <Cell label="Provider's message" className="break-words text-xs">
                {loss.providerMessage ?? '—'}
              </Cell>
              <TimeCell at={loss.at} label="When" />
            </tr>
          ))}
        </DataTable>
      </ListState>
    </div>
  );
}

/**
 * Sends a failed or refused payout, or a share refused while given back, again at once; a payout
 * still being sent has nothing to retry.
 */
function RetryPayoutButton({ payout }: { payout: FailedPayout }) {
  const retry = useRetryPayout({
    onDone: (after) =>
      toast(
        after.status === 'paid' && after.lastError === null
          ? {
              title: 'Payout sent',
              description: `${after.orderNumber}: ${formatPrice(after.amount)} paid out.`,
            }
          : {
              title: 'Payout not sent',
              description: after.lastError ?? 'The provider did not take it; it is still listed here.',
              variant: 'destructive',
            },
      ),
    onFailed: (error) => toastMutationError(error, 'Failed to retry payout', { appendServerMessage: true }),
  });
  // A share refused while given back after a failed refund is sent again the same way.
  const retryable = payout.status === 'failed' || payout.status === 'refused' || payout.refusedShare !== null;
  if (!retryable) return <span aria-hidden="true">—</span>;
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={retry.isPending}
      onClick={() => retry.mutate(payout.id)}
      aria-label={`Retry payout of ${payout.orderNumber} to ${payout.userName}`}
    >
      <RotateCw aria-hidden="true" className="size-4" />
      Retry Payout
    </Button>
  );
}
