import type { TestPayoutAccountView } from '@domain/payout-accounts';
import { Badge } from '../../../components/ui/badge';
import { formatDateTime } from '../../../lib/format';

function yesNo(value: boolean): string {
  return value ? 'Yes' : 'No';
}

/** The simulated account as the test provider's pages show it (docs/rules/money.md, Payout accounts). */
export function TestPayoutAccountDetails({ account }: { account: TestPayoutAccountView }) {
  const status = !account.onboardingComplete
    ? { label: 'Incomplete', variant: 'warning' as const }
    : account.status === 'active'
      ? { label: 'Active', variant: 'success' as const }
      : account.status === 'restricted'
        ? { label: 'Restricted', variant: 'destructive' as const }
        : { label: 'Pending', variant: 'secondary' as const };
  const rows: [string, string][] = [
    ['Account', account.accountId],
    ['Email', account.email],
    ['Details submitted', yesNo(account.onboardingComplete)],
    ['Charges enabled', yesNo(account.chargesEnabled)],
    ['Payouts enabled', yesNo(account.payoutsEnabled)],
    ['Last changed', formatDateTime(account.updatedAt) ?? ''],
  ];
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-2 text-sm">
        <span className="text-muted-foreground">Status</span>
        <Badge variant={status.variant} data-testid="badge-test-account-status">
          {status.label}
        </Badge>
      </div>
      <dl className="grid grid-cols-1 gap-y-3 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6 sm:gap-y-2">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-col gap-0.5 sm:contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 break-words font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
