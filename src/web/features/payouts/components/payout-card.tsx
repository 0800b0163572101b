import { useCallback, useEffect, useRef } from 'react';
import { ExternalLink, Landmark, RotateCw } from 'lucide-react';
import {
  PAYOUT_RETURN_PARAM,
  type PayoutAccountState,
  type PayoutAccountStatusName,
  type PayoutDashboard,
} from '@domain/payout-accounts';
import { Badge, type BadgeProps } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toastMutationError } from '../../../lib/mutation-errors';
import { browserLocation } from '../../../lib/navigation';
import { useCreateDashboardLink } from '../api/create-dashboard-link';
import { useCreateOnboardingLink } from '../api/create-onboarding-link';
import { useCreatePayoutAccount } from '../api/create-payout-account';
import { usePayoutAccountStatus } from '../api/get-payout-account-status';

/** The spec's failure toasts (docs/rules/money.md, Payout accounts). */
export const CREATE_FAILED = 'Failed to create payout account';
export const ONBOARDING_FAILED = 'Failed to start onboarding';
export const DASHBOARD_FAILED = 'Failed to open payout dashboard';

const STATUS_BADGE: Record<PayoutAccountStatusName, { label: string; variant: BadgeProps['variant'] }> = {
  active: { label: 'Active', variant: 'success' },
  pending: { label: 'Pending', variant: 'secondary' },
  restricted: { label: 'Restricted', variant: 'destructive' },
};

const STATUS_TEXT: Record<PayoutAccountStatusName, string> = {
  active: 'Your payout account is ready. Earnings of finished orders are sent to it.',
  pending:
    'Your details are being verified. Earnings wait for you and are sent as soon as the account is active.',
  restricted:
    'The payout provider needs more information before it can pay you. Earnings wait for you until then.',
};

/** What the card is about on each dashboard. */
const WHAT_IS_PAID: Record<PayoutDashboard, string> = {
  seller: 'your sales',
  driver: 'your deliveries',
};

/**
 * The ?payouts= the provider brings the user back with: `refresh` means the onboarding link
 * expired, so a new one is followed at once (as Stripe asks of a refresh_url); either is then
 * removed from the address so a reload does not repeat it.
 */
function takeReturnParam(): string | null {
  const url = new URL(window.location.href);
  const value = url.searchParams.get(PAYOUT_RETURN_PARAM);
  if (value === null) return null;
  url.searchParams.delete(PAYOUT_RETURN_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return value;
}

function StatusBadge({ state }: { state: PayoutAccountState }) {
  if (!state.onboardingComplete)
    return (
      <Badge variant="warning" data-testid="badge-payout-status">
        Incomplete
      </Badge>
    );
  const badge = STATUS_BADGE[state.status ?? 'pending'];
  return (
    <Badge variant={badge.variant} data-testid="badge-payout-status">
      {badge.label}
    </Badge>
  );
}

/**
 * The payout card of the seller and driver dashboards (docs/rules/money.md, Payout accounts): no
 * account → Set Up Payouts; an account not onboarded → Incomplete and Complete Setup; otherwise a
 * badge of Active, Pending or Restricted, and the provider's dashboard in a new tab. The status is
 * polled every 60 s; the onboarding is followed in this window and comes back to `dashboard`.
 */
export function PayoutCard({ dashboard }: { dashboard: PayoutDashboard }) {
  const status = usePayoutAccountStatus();
  const createAccount = useCreatePayoutAccount();
  const onboardingLink = useCreateOnboardingLink();
  const dashboardLink = useCreateDashboardLink();
  const refreshHandled = useRef(false);

  const { mutate: requestOnboardingLink } = onboardingLink;
  const startOnboarding = useCallback(
    () =>
      requestOnboardingLink(dashboard, {
        onSuccess: ({ url }) => browserLocation.assign(url),
        onError: (error) => toastMutationError(error, ONBOARDING_FAILED),
      }),
    [requestOnboardingLink, dashboard],
  );

  const setUp = () =>
    createAccount.mutate(undefined, {
      onSuccess: startOnboarding,
      onError: (error) => toastMutationError(error, CREATE_FAILED),
    });

  const openDashboard = () => {
    // Opened now, while the click still counts as the user's, so no pop-up blocker stops it; the
    // address follows once the server answers.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    dashboardLink.mutate(undefined, {
      onSuccess: ({ url }) => {
        if (tab) tab.location.href = url;
        else window.open(url, '_blank', 'noopener');
      },
      onError: (error) => {
        tab?.close();
        toastMutationError(error, DASHBOARD_FAILED);
      },
    });
  };

  const state = status.data;
  const hasAccount = state?.hasAccount ?? false;
  useEffect(() => {
    if (refreshHandled.current || !state) return;
    refreshHandled.current = true;
    // Once, with the first answer.
    if (takeReturnParam() === 'refresh' && hasAccount) startOnboarding();
  }, [state, hasAccount, startOnboarding]);

  const busy = createAccount.isPending || onboardingLink.isPending;

  return (
    <Card data-testid="card-payouts">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle as="h3" className="flex items-center gap-2">
            <Landmark className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
            Payouts
          </CardTitle>
          <CardDescription>Where the earnings of {WHAT_IS_PAID[dashboard]} are sent.</CardDescription>
        </div>
        {state?.hasAccount ? <StatusBadge state={state} /> : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {status.isLoading ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading payout status...
          </p>
        ) : !state ? (
          <div role="alert" className="flex flex-col items-start gap-3 text-sm">
            <span>Your payout status could not be loaded.</span>
            <Button
              variant="outline"
              size="sm"
              onClick={() => void status.refetch()}
              disabled={status.isFetching}
            >
              <RotateCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : !state.hasAccount ? (
          <>
            <p className="text-sm text-muted-foreground">
              Set up a payout account to receive your earnings. It takes a few minutes with the payout
              provider; you come back here when you are done.
            </p>
            <Button className="self-start" onClick={setUp} disabled={busy}>
              {busy ? 'Setting up...' : 'Set Up Payouts'}
            </Button>
          </>
        ) : !state.onboardingComplete ? (
          <>
            <p className="text-sm text-muted-foreground">
              Your payout setup is not finished. Earnings wait for you until it is.
            </p>
            <Button className="self-start" onClick={startOnboarding} disabled={busy}>
              {busy ? 'Opening...' : 'Complete Setup'}
            </Button>
          </>
        ) : (
          <>
            <p className="text-sm text-muted-foreground" data-testid="text-payout-status">
              {STATUS_TEXT[state.status ?? 'pending']}
            </p>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={openDashboard} disabled={dashboardLink.isPending}>
                <ExternalLink aria-hidden="true" />
                Open Payout Dashboard
                <span className="sr-only"> (opens in a new tab)</span>
              </Button>
              {state.status === 'restricted' ? (
                <Button onClick={startOnboarding} disabled={busy}>
                  {busy ? 'Opening...' : 'Update Details'}
                </Button>
              ) : null}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
