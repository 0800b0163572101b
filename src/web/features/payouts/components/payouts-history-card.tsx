import { PAYOUT_STATUS_LABEL, type PayoutView } from '@domain/payouts';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { useMyPayouts } from '../api/get-my-payouts';

const STATUS_TONE: Record<PayoutView['status'], string> = {
  owed: 'text-amber-700 dark:text-amber-400',
  pending: 'text-amber-700 dark:text-amber-400',
  paid: 'text-green-700 dark:text-green-400',
  failed: 'text-destructive',
  refused: 'text-destructive',
  reversed: 'text-muted-foreground',
  cancelled: 'text-muted-foreground',
};

function Sum({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg border p-3">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      <span className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {formatPrice(value)}
      </span>
    </div>
  );
}

/**
 * Payouts on the seller's and the driver's dashboards (docs/decisions/0013-money-movement.md,
 * Transfers and the ledger): owed (waiting for the payout account, or being sent), paid out and
 * reversed, then each finished order's payout and where it stands, newest first.
 */
export function PayoutsHistoryCard() {
  const payouts = useMyPayouts();
  const data = payouts.data;
  return (
    <Card data-testid="card-payouts-history">
      <CardHeader>
        <CardTitle as="h3">Payout History</CardTitle>
        <CardDescription>
          What your finished orders paid you. Owed amounts go out once your payout account is active.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {payouts.isError ? (
          <div role="alert" className="flex flex-col items-start gap-2 text-sm">
            <span>Payouts could not be loaded.</span>
            <Button variant="outline" size="sm" onClick={() => void payouts.refetch()}>
              Try Again
            </Button>
          </div>
        ) : !data ? (
          <p className="text-sm text-muted-foreground">Loading payouts...</p>
        ) : (
          <>
            <div className="grid grid-cols-3 gap-2">
              <Sum label="Owed" value={data.owed} testId="text-payouts-owed" />
              <Sum label="Paid out" value={data.paidOut} testId="text-payouts-paid" />
              <Sum label="Reversed" value={data.reversed} testId="text-payouts-reversed" />
            </div>
            {data.payouts.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                No payouts yet. They start when an order is finished.
              </p>
            ) : (
              <ul className="flex flex-col divide-y text-sm" aria-label="Payouts history">
                {data.payouts.map((payout) => (
                  <li
                    key={payout.id}
                    className="flex flex-wrap items-center justify-between gap-2 py-2"
                    data-testid={`row-payout-${payout.orderNumber}`}
                  >
                    <span className="flex flex-col">
                      <span className="font-medium">{payout.orderNumber}</span>
                      <span className="text-xs text-muted-foreground">
                        {payout.kind === 'driver' ? 'Delivery' : 'Sale'} ·{' '}
                        {formatDateTime(payout.reversedAt ?? payout.paidAt ?? payout.createdAt)}
                      </span>
                    </span>
                    <span className="flex items-center gap-3">
                      <span className="tabular-nums">{formatPrice(payout.amount)}</span>
                      <span
                        className={`font-medium ${STATUS_TONE[payout.status]}`}
                        title={
                          payout.status === 'refused'
                            ? 'Your payout account refused this payout several times. It is sent again once your account is fixed, or by the marketplace team.'
                            : undefined
                        }
                      >
                        {PAYOUT_STATUS_LABEL[payout.status]}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
