import { Link, useParams, useSearch } from 'wouter';
import { PAYOUT_DASHBOARD_PATHS, type TestOnboardingOutcomeName } from '@domain/payout-accounts';
import { PageHeading } from '../../components/page-heading';
import { PageLoading } from '../../components/page-loading';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { errorMessage } from '../../lib/api-client';
import { toastMutationError } from '../../lib/mutation-errors';
import { browserLocation } from '../../lib/navigation';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAuth } from '../../lib/use-auth';
import { useTestOnboarding } from '../../features/payouts/api/get-test-onboarding';
import { useSubmitTestOnboarding } from '../../features/payouts/api/submit-test-onboarding';
import { TestPayoutAccountDetails } from '../../features/payouts/components/test-payout-account-details';
import { AppLayout } from '../layouts/app-layout';

const CHOICES: {
  outcome: TestOnboardingOutcomeName;
  label: string;
  text: string;
  variant: 'default' | 'outline' | 'destructive';
}[] = [
  {
    outcome: 'complete',
    label: 'Complete Setup',
    text: 'Submit your details: the account becomes active and can receive payouts.',
    variant: 'default',
  },
  {
    outcome: 'incomplete',
    label: 'Leave Incomplete',
    text: 'Go back without finishing: the dashboard shows the setup as incomplete.',
    variant: 'outline',
  },
  {
    outcome: 'restricted',
    label: 'Submit and Get Restricted',
    text: 'Submit details the provider cannot verify: the account is restricted and receives nothing.',
    variant: 'destructive',
  },
];

/**
 * /payouts/test-onboarding/{accountId}?token= (docs/rules/money.md, Payout accounts): the built-in
 * test provider's stand-in for the payout provider's hosted onboarding. The account's own user
 * completes the simulated account, leaves it incomplete or has it restricted, and returns to the
 * dashboard the link was made for.
 */
export function TestPayoutOnboardingPage() {
  useDocumentTitle('Payout Setup');
  const { accountId = '' } = useParams<{ accountId: string }>();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const { user } = useAuth();
  const view = useTestOnboarding(accountId, token);
  const submit = useSubmitTestOnboarding();
  const dashboardPath = user?.roles.includes('seller')
    ? PAYOUT_DASHBOARD_PATHS.seller
    : PAYOUT_DASHBOARD_PATHS.driver;

  const choose = (outcome: TestOnboardingOutcomeName) =>
    submit.mutate(
      { accountId, token, outcome },
      {
        onSuccess: ({ returnUrl }) => browserLocation.assign(returnUrl),
        onError: (error) =>
          toastMutationError(error, 'Failed to save payout setup', { preferServerMessage: true }),
      },
    );

  return (
    <AppLayout>
      <PageHeading
        title="Payout Setup"
        subtitle="The marketplace's test payout provider: no real money moves and no real details are asked."
      />
      {view.isLoading ? (
        <PageLoading label="Loading payout account..." />
      ) : view.isError || !view.data ? (
        <Card className="max-w-2xl">
          <CardContent className="flex flex-col items-start gap-4 p-6" role="alert">
            <p className="text-sm">{errorMessage(view.error, 'This payout account could not be loaded.')}</p>
            <Button asChild variant="outline">
              <Link href={dashboardPath}>Back to Dashboard</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <div className="grid max-w-4xl gap-6 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Your payout account</CardTitle>
              <CardDescription>As the payout provider sees it now.</CardDescription>
            </CardHeader>
            <CardContent>
              <TestPayoutAccountDetails account={view.data.account} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2">Finish the setup</CardTitle>
              <CardDescription>
                Choose how this setup ends; you then return to your dashboard.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="flex flex-col gap-4">
                {CHOICES.map((choice) => (
                  <li key={choice.outcome} className="flex flex-col items-start gap-2">
                    <Button
                      variant={choice.variant}
                      disabled={submit.isPending || submit.isSuccess}
                      onClick={() => choose(choice.outcome)}
                      data-testid={`button-onboarding-${choice.outcome}`}
                    >
                      {choice.label}
                    </Button>
                    <p className="text-sm text-muted-foreground">{choice.text}</p>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </div>
      )}
    </AppLayout>
  );
}
