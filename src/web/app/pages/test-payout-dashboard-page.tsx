import { useParams } from 'wouter';
import { PageHeading } from '../../components/page-heading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { errorMessage } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useTestPayoutAccount } from '../../features/payouts/api/get-test-payout-account';
import { TestPayoutAccountDetails } from '../../features/payouts/components/test-payout-account-details';
import { AppLayout } from '../layouts/app-layout';

/**
 * /payouts/test-dashboard/{accountId} (docs/rules/money.md, Payout accounts): the built-in test
 * provider's stand-in for the payout provider's dashboard, showing the simulated account to its
 * own user.
 */
export function TestPayoutDashboardPage() {
  useDocumentTitle('Payout Account');
  const { accountId = '' } = useParams<{ accountId: string }>();
  const account = useTestPayoutAccount(accountId);
  return (
    <AppLayout>
      <PageHeading
        title="Payout Account"
        subtitle="The marketplace's test payout provider: no real money moves."
      />
      <Card className="max-w-2xl">
        <CardHeader>
          <CardTitle as="h2">Account details</CardTitle>
          <CardDescription>What the payout provider holds for you.</CardDescription>
        </CardHeader>
        <CardContent>
          {account.isLoading ? (
            <p role="status" className="text-sm text-muted-foreground">
              Loading payout account...
            </p>
          ) : account.data ? (
            <TestPayoutAccountDetails account={account.data} />
          ) : (
            <p role="alert" className="text-sm">
              {errorMessage(account.error, 'This payout account could not be loaded.')}
            </p>
          )}
        </CardContent>
      </Card>
    </AppLayout>
  );
}
