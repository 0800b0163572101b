import { useEffect, useId, useState, type FormEvent } from 'react';
import { BellOff, BellRing } from 'lucide-react';
import { PUSH_KIND_LABELS, PUSH_KINDS, type NotificationPreferences, type PushKind } from '@domain/push';
import type { CurrentUser } from '@domain/users';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/use-toast';
import { marketplaceZoneText } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import {
  currentSubscription,
  disablePush,
  enablePush,
  pushSupported,
  usePushPreferences,
  useSavePushPreferences,
} from '../api/push';

type DeviceState = 'checking' | 'unsupported' | 'blocked' | 'off' | 'on';

/** "22:00" from a minute of the day, and back. */
const toTime = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const toMinute = (time: string) => {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
};

/** The switches that apply to the user's roles: offers for drivers, new orders for sellers. */
function kindsFor(user: CurrentUser): PushKind[] {
  return PUSH_KINDS.filter(
    (kind) =>
      (kind !== 'offers' || user.roles.includes('driver')) &&
      (kind !== 'newOrders' || user.roles.includes('seller')),
  );
}

/**
 * The profile's Notifications card (docs/decisions/0019-reaching-people.md, Push and the installable
 * app): push on this device on or off, a switch per kind and quiet hours in the marketplace time zone.
 */
export function NotificationsCard({ user }: { user: CurrentUser }) {
  const [device, setDevice] = useState<DeviceState>('checking');
  const [busy, setBusy] = useState(false);
  const preferences = usePushPreferences();
  const save = useSavePushPreferences();
  const [draft, setDraft] = useState<NotificationPreferences | undefined>(undefined);
  const shown = draft ?? preferences.data;

  useEffect(() => {
    if (!pushSupported()) {
      setDevice('unsupported');
      return;
    }
    if (Notification.permission === 'denied') {
      setDevice('blocked');
      return;
    }
    currentSubscription()
      .then((subscription) => setDevice(subscription ? 'on' : 'off'))
      .catch(() => setDevice('off'));
  }, []);

  const turnOn = async () => {
    setBusy(true);
    try {
      const permission = await enablePush();
      if (permission === 'granted') {
        setDevice('on');
        toast({ title: 'Notifications are on for this device' });
      } else if (permission === 'denied') {
        setDevice('blocked');
      }
    } catch (error) {
      toastMutationError(error, 'Could not turn on notifications');
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    try {
      await disablePush();
      setDevice('off');
      toast({ title: 'Notifications are off for this device' });
    } catch (error) {
      toastMutationError(error, 'Could not turn off notifications');
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!shown) return;
    save.mutate(shown, {
      onSuccess: () => {
        setDraft(undefined);
        toast({ title: 'Notification settings saved' });
      },
      onError: (error) => toastMutationError(error, 'Failed to save notification settings'),
    });
  };

  const quiet = shown !== undefined && shown.quietStartMinute !== null;

  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} as="h2">
          Notifications
        </CardTitle>
        <CardDescription>
          Hear about your orders and messages on this device, even with the tab closed.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-col gap-2 rounded-lg border p-4" aria-live="polite">
          {device === 'unsupported' ? (
            <p className="text-sm text-muted-foreground">This browser cannot show notifications.</p>
          ) : device === 'blocked' ? (
            <p className="text-sm text-muted-foreground">
              Notifications are blocked for this site in your browser settings.
            </p>
          ) : device === 'on' ? (
            <>
              <p className="text-sm">Notifications are on for this device.</p>
              <Button variant="outline" onClick={() => void turnOff()} disabled={busy}>
                <BellOff aria-hidden="true" />
                Turn off on this device
              </Button>
            </>
          ) : (
            <Button onClick={() => void turnOn()} disabled={busy || device === 'checking'}>
              <BellRing aria-hidden="true" />
              Turn on notifications on this device
            </Button>
          )}
        </div>
        {shown ? (
          <form className="flex flex-col gap-3" onSubmit={submit} aria-label="Notification settings">
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">Tell me about</legend>
              {kindsFor(user).map((kind) => (
                <label key={kind} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={shown[kind]}
                    onChange={(event) => setDraft({ ...shown, [kind]: event.target.checked })}
                  />
                  {PUSH_KIND_LABELS[kind]}
                </label>
              ))}
            </fieldset>
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">Quiet hours</legend>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={quiet}
                  onChange={(event) =>
                    setDraft({
                      ...shown,
                      quietStartMinute: event.target.checked ? 22 * 60 : null,
                      quietEndMinute: event.target.checked ? 7 * 60 : null,
                    })
                  }
                />
                Send nothing during quiet hours
              </label>
              {quiet ? (
                <div className="grid grid-cols-2 gap-3">
                  <div className="flex flex-col gap-1">
                    <Label htmlFor="quiet-start">From</Label>
                    <Input
                      id="quiet-start"
                      type="time"
                      required
                      value={toTime(shown.quietStartMinute ?? 0)}
                      onChange={(event) =>
                        setDraft({ ...shown, quietStartMinute: toMinute(event.target.value) })
                      }
                    />
                  </div>
                  <div className="flex flex-col gap-1">
                    <Label htmlFor="quiet-end">Until</Label>
                    <Input
                      id="quiet-end"
                      type="time"
                      required
                      value={toTime(shown.quietEndMinute ?? 0)}
                      onChange={(event) =>
                        setDraft({ ...shown, quietEndMinute: toMinute(event.target.value) })
                      }
                    />
                  </div>
                  <p className="col-span-2 text-xs text-muted-foreground">
                    Times in {marketplaceZoneText()}.
                  </p>
                </div>
              ) : null}
            </fieldset>
            <Button type="submit" variant="outline" disabled={save.isPending || draft === undefined}>
              Save notification settings
            </Button>
          </form>
        ) : null}
      </CardContent>
    </Card>
  );
}
