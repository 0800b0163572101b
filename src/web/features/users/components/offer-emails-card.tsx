import { useId } from 'react';
import type { CurrentUser } from '@domain/users';
import { DRIVER_DISTANCE } from '@domain/deliveries';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useEmailPreferences, useSetEmailPreferences } from '../api/email-preferences';

/**
 * The profile's Offer Emails, for drivers (docs/decisions/0019-reaching-people.md, Mail): one switch,
 * off until turned on, for a mail when an order is offered near the driver's primary address.
 */
export function OfferEmailsCard({ user }: { user: CurrentUser }) {
  return user.roles.includes('driver') ? <OfferEmailsSwitch /> : null;
}

function OfferEmailsSwitch() {
  const preferences = useEmailPreferences();
  const save = useSetEmailPreferences();
  const checked = preferences.data?.offerAlerts ?? false;

  const change = (offerAlerts: boolean) =>
    save.mutate(
      { offerAlerts },
      {
        onSuccess: () => toast({ title: offerAlerts ? 'Offer emails turned on' : 'Offer emails turned off' }),
        onError: (error) => toastMutationError(error, 'Failed to save offer emails'),
      },
    );

  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} as="h2">
          Offer Emails
        </CardTitle>
        <CardDescription>Hear about new deliveries while the app is closed.</CardDescription>
      </CardHeader>
      <CardContent>
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-primary"
            checked={checked}
            disabled={preferences.isPending || save.isPending}
            onChange={(event) => change(event.target.checked)}
          />
          <span>
            Email me new delivery offers within {DRIVER_DISTANCE.default} miles of my primary address
          </span>
        </label>
        {preferences.isError ? (
          <p className="mt-2 text-xs text-destructive">Your email settings could not be loaded.</p>
        ) : null}
      </CardContent>
    </Card>
  );
}
