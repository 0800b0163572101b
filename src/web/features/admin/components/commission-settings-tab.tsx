import { useState, type FormEvent } from 'react';
import { Save } from 'lucide-react';
import {
  MIN_ABOVE_BASE_MESSAGE,
  percentToRate,
  rateToPercent,
  type CommissionSettingsBody,
} from '@domain/admin';
import type { CommissionSettingsText } from '@domain/fees';
import { formatCents, parseCents } from '@domain/money';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { fieldErrorsOf } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useCommissionSettings, useSaveCommissionSettings } from '../api/commission-settings';
import { COMMISSION_FIELDS, type CommissionField } from '../commission-fields';
import { DeliveryProofCard } from './delivery-proof-card';

type FormValues = Record<CommissionField, string>;
type FormErrors = Partial<Record<CommissionField, string>>;

const PERCENT_PATTERN = /^\d+(\.\d{1,2})?$/;
const AMOUNT_PATTERN = /^\d{1,8}(\.\d{1,2})?$/;
export const PERCENT_MESSAGE = 'Enter a percentage from 0 to 100 with at most 2 decimals';
export const AMOUNT_MESSAGE = 'Enter an amount of at least 0 with at most 2 decimals';

/** Rates are shown as percentages, amounts as they are (docs/rules/screens-work.md, Admin screens). */
function toFormValues(settings: CommissionSettingsText): FormValues {
  const values = {} as FormValues;
  for (const field of COMMISSION_FIELDS) {
    values[field.name] = field.kind === 'rate' ? rateToPercent(settings[field.name]) : settings[field.name];
  }
  return values;
}

/**
 * Every field is a required number; percentages 0 to 100 and amounts at least 0, both with at most 2
 * decimals; the minimum not above the base. Then percentages are divided by 100 and sent with 4
 * decimals, amounts with 2 (docs/rules/screens-work.md, Admin screens).
 */
export function checkCommissionForm(
  values: FormValues,
): { body: CommissionSettingsBody } | { errors: FormErrors } {
  const errors: FormErrors = {};
  const body = {} as CommissionSettingsBody;
  for (const field of COMMISSION_FIELDS) {
    const text = values[field.name].trim();
    if (text === '') {
      errors[field.name] = 'Required';
    } else if (field.kind === 'rate') {
      if (!PERCENT_PATTERN.test(text) || parseCents(text) > 100_00) errors[field.name] = PERCENT_MESSAGE;
      else body[field.name] = percentToRate(text);
    } else if (!AMOUNT_PATTERN.test(text)) {
      errors[field.name] = AMOUNT_MESSAGE;
    } else {
      body[field.name] = formatCents(parseCents(text));
    }
  }
  if (
    !errors.baseCommissionRate &&
    !errors.minCommissionRate &&
    parseCents(values.minCommissionRate) > parseCents(values.baseCommissionRate)
  ) {
    errors.minCommissionRate = MIN_ABOVE_BASE_MESSAGE;
  }
  return Object.keys(errors).length > 0 ? { errors } : { body };
}

function CommissionForm({ settings }: { settings: CommissionSettingsText }) {
  const [values, setValues] = useState<FormValues>(() => toFormValues(settings));
  const [errors, setErrors] = useState<FormErrors>({});
  const save = useSaveCommissionSettings({
    onSaved: () =>
      toast({
        title: 'Settings updated',
        description: 'Orders paid from now on use the new commission settings.',
      }),
    onFailed: (error) => {
      setErrors((fieldErrorsOf(error) ?? {}) as FormErrors);
      toastMutationError(error, 'Failed to update settings', { appendServerMessage: true });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkCommissionForm(values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(checked.body);
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6" aria-label="Commission settings">
      <div className="grid grid-cols-1 gap-x-6 gap-y-5 md:grid-cols-2">
        {COMMISSION_FIELDS.map((field) => (
          <FormField
            key={field.name}
            id={`commission-${field.name}`}
            label={field.label}
            hint={field.hint}
            error={errors[field.name]}
            // Inputs stay on one line with their neighbours whatever the length of the hints.
            className="content-start"
          >
            {(control) => (
              <Input
                {...control}
                type="number"
                inputMode="decimal"
                min={0}
                max={field.kind === 'rate' ? 100 : undefined}
                step={0.01}
                required
                value={values[field.name]}
                onChange={(event) =>
                  setValues((current) => ({ ...current, [field.name]: event.target.value }))
                }
              />
            )}
          </FormField>
        ))}
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          New settings apply to orders paid after saving; every earlier order keeps the rates it was paid
          with.
        </p>
        <Button type="submit" disabled={save.isPending}>
          <Save aria-hidden="true" />
          {save.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}

/** Commission Settings (docs/rules/screens-work.md, Admin screens): the percentage form, then Proof of delivery. */
export function CommissionSettingsTab() {
  const settings = useCommissionSettings();
  if (settings.isError) {
    return (
      <p role="alert" className="rounded-lg border p-4 text-sm">
        Failed to load commission settings. Please refresh the page or contact support.
      </p>
    );
  }
  if (!settings.data) {
    return (
      <p role="status" className="py-8 text-center text-sm text-muted-foreground">
        Loading commission settings...
      </p>
    );
  }
  // A save elsewhere (another admin) brings new values: the form starts again from them.
  return (
    <div className="flex flex-col gap-8">
      <CommissionForm key={JSON.stringify(settings.data)} settings={settings.data} />
      <DeliveryProofCard />
    </div>
  );
}
