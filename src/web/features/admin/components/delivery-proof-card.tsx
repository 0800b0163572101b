import { useId, useState, type FormEvent } from 'react';
import { Save } from 'lucide-react';
import type { DeliveryProofSettings } from '@domain/delivery-proof';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useDeliveryProofSettings, useSaveDeliveryProofSettings } from '../api/delivery-proof-settings';

const SWITCHES: { name: keyof DeliveryProofSettings; label: string }[] = [
  { name: 'standardPhoto', label: 'Standard orders: drop-off photo required' },
  { name: 'standardCode', label: "Standard orders: buyer's delivery code required" },
  { name: 'trailerPhoto', label: 'Trailer orders: drop-off photo required' },
  { name: 'trailerCode', label: "Trailer orders: buyer's delivery code required" },
];

function DeliveryProofForm({ settings }: { settings: DeliveryProofSettings }) {
  const [values, setValues] = useState(settings);
  const save = useSaveDeliveryProofSettings({
    onSaved: () =>
      toast({ title: 'Settings updated', description: 'Mark Delivered now asks for the proof chosen.' }),
    onFailed: (error) =>
      toastMutationError(error, 'Failed to update settings', { appendServerMessage: true }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(values);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Proof of delivery">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {SWITCHES.map((item) => (
          <label key={item.name} className="flex min-h-10 items-center gap-3 text-sm">
            <input
              type="checkbox"
              className="size-5 accent-primary"
              checked={values[item.name]}
              onChange={(event) =>
                setValues((current) => ({ ...current, [item.name]: event.target.checked }))
              }
            />
            {item.label}
          </label>
        ))}
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          <Save aria-hidden="true" />
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}

/**
 * "Proof of delivery" (docs/rules/screens-work.md, Admin screens): whether Mark Delivered needs a drop-off
 * photo and the buyer's code, for standard and for trailer orders.
 */
export function DeliveryProofCard() {
  const settings = useDeliveryProofSettings();
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle as="h3" id={titleId}>
          Proof of delivery
        </CardTitle>
        <CardDescription>
          What a driver gives at Mark Delivered. The code is the 4 digits the buyer reads from their order
          page.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isError ? (
          <p role="alert" className="text-sm">
            Failed to load the proof of delivery settings. Please refresh the page.
          </p>
        ) : settings.data ? (
          <DeliveryProofForm key={JSON.stringify(settings.data)} settings={settings.data} />
        ) : (
          <p role="status" className="text-sm text-muted-foreground">
            Loading proof of delivery settings...
          </p>
        )}
      </CardContent>
    </Card>
  );
}
