import { useEffect, useRef, useState } from 'react';
import { CircleAlert, CircleCheckBig, LoaderCircle, MapPinned, TriangleAlert } from 'lucide-react';
import { addressBodySchema, addressValidateBodySchema, type Address } from '@domain/addresses';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { isUnauthorizedError } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { cn } from '../../../lib/utils';
import { useCreateAddress } from '../api/create-address';
import { useUpdateAddress } from '../api/update-address';
import { useValidateAddress } from '../api/validate-address';

export interface AddressFormValues {
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  zipCode: string;
}

type FieldName = keyof AddressFormValues;

/**
 * Address validation: idle, success or unavailable
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
 */
export type AddressValidationState =
  | { status: 'idle' }
  | {
      status: 'success';
      latitude: number | null;
      longitude: number | null;
      isVerified: boolean;
      /** The server's proof that these very fields were verified; sent back on save. */
      validationToken: string | null;
    }
  | { status: 'unavailable'; latitude: null; longitude: null; isVerified: false };

const IDLE: AddressValidationState = { status: 'idle' };
/**
 * An unavailable result clears the coordinates and leaves the address unverified
 * (docs/rules/screens-buyer.md, Account pages).
 */
const UNAVAILABLE: AddressValidationState = {
  status: 'unavailable',
  latitude: null,
  longitude: null,
  isVerified: false,
};

/** The marketplace is US-only (docs/rules/catalog-and-orders.md, Addresses, availability and slots; decision 0005). */
const COUNTRY = 'US';

export const VALIDATION_UNAVAILABLE_TITLE = 'Validation unavailable';
export const VALIDATION_UNAVAILABLE_DESCRIPTION =
  'We could not verify this address, but you can still save it.';

/**
 * The address form: validation needs address line 1, city, state and ZIP code
 * (docs/rules/screens-buyer.md, Account pages).
 */
export function canValidateAddress(values: AddressFormValues): boolean {
  return [values.addressLine1, values.city, values.state, values.zipCode].every(
    (value) => value.trim().length > 0,
  );
}

function valuesOf(address: Address | undefined): AddressFormValues {
  return {
    addressLine1: address?.addressLine1 ?? '',
    addressLine2: address?.addressLine2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zipCode: address?.zipCode ?? '',
  };
}

function formatCoordinate(value: number | null): string {
  return value === null ? 'unknown' : value.toFixed(4);
}

/**
 * The address form of the add and edit dialogs (docs/rules/screens-buyer.md, Account pages): Validate
 * Address is optional and never blocks saving; the rules themselves come from the shared schema in
 * domain/addresses.
 */
export function AddressForm({
  address,
  onSaved,
  onCancel,
}: {
  /** The address being edited; none to add a new one. */
  address?: Address;
  onSaved: (saved: Address) => void;
  onCancel: () => void;
}) {
  const resultRef = useRef<HTMLDivElement>(null);
  const unavailableToastRef = useRef<{ dismiss: () => void } | null>(null);
  // Counts edits, so an answer to values the user has since changed is dropped, not applied.
  const editCountRef = useRef(0);
  const { formRef, values, errors, setValue, setValues, validateWith, handleSubmit, showServerErrors } =
    useSchemaForm({
      schema: addressBodySchema,
      initialValues: () => valuesOf(address),
      toInput: (typed: AddressFormValues) => ({ ...typed, country: COUNTRY }),
      whenEdited: 'clear-field-error',
    });
  const [validation, setValidation] = useState<AddressValidationState>(IDLE);
  const validate = useValidateAddress();
  const createAddress = useCreateAddress();
  const updateAddress = useUpdateAddress();
  const isSaving = createAddress.isPending || updateAddress.isPending;
  const isValidateEnabled = canValidateAddress(values) && !validate.isPending && !isSaving;

  // On a small screen the result can land below the fold: bring it into view once it is shown.
  useEffect(() => {
    if (validation.status !== 'idle') resultRef.current?.scrollIntoView({ block: 'nearest' });
  }, [validation]);

  const update = (field: FieldName, value: string) => {
    editCountRef.current += 1;
    setValue(field, value);
    // A result speaks for the values it checked; once they change it no longer holds.
    setValidation(IDLE);
  };

  const showUnavailable = () => {
    setValidation(UNAVAILABLE);
    unavailableToastRef.current = toast({
      title: VALIDATION_UNAVAILABLE_TITLE,
      description: VALIDATION_UNAVAILABLE_DESCRIPTION,
    });
  };

  const onValidate = () => {
    const parsed = validateWith(addressValidateBodySchema);
    if (!parsed.ok) return;
    const editCount = editCountRef.current;
    validate.mutate(parsed.data, {
      onSuccess: (result) => {
        if (editCount !== editCountRef.current) return;
        if (result.status === 'unavailable') {
          showUnavailable();
          return;
        }
        // A later answer replaces an earlier "unavailable" one, toast included.
        unavailableToastRef.current?.dismiss();
        unavailableToastRef.current = null;
        setValues({
          addressLine1: result.addressLine1,
          addressLine2: result.addressLine2 ?? '',
          city: result.city,
          state: result.state,
          zipCode: result.zipCode,
        });
        setValidation({
          status: 'success',
          latitude: result.latitude,
          longitude: result.longitude,
          isVerified: result.isVerified,
          validationToken: result.validationToken,
        });
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) {
          toastMutationError(error, VALIDATION_UNAVAILABLE_TITLE);
          return;
        }
        if (editCount !== editCountRef.current) return;
        // Refused input, not an unavailable service: saving would be refused the same way.
        if (showServerErrors(error)) return;
        // A failed validation clears the coordinates; the address can still be saved
        // (docs/rules/screens-buyer.md, Account pages).
        showUnavailable();
      },
    });
  };

  const onSubmit = handleSubmit((data) => {
    // Verified only when verified (docs/rules/catalog-and-orders.md, Addresses, availability and slots): the
    // proof goes along only while the fields are the ones validated; any edit reset it to idle.
    const validationToken = validation.status === 'success' ? validation.validationToken : null;
    const body = { ...data, addressLine2: data.addressLine2 || null, validationToken };
    const onError = (error: unknown) => showServerErrors(error);
    if (address) {
      updateAddress.mutate(
        { id: address.id, body },
        {
          onSuccess: (saved) => {
            toast({ title: 'Address updated', description: 'Your changes have been saved.' });
            onSaved(saved);
          },
          onError,
        },
      );
    } else {
      createAddress.mutate(body, {
        onSuccess: (saved) => {
          toast({
            title: 'Address added',
            description: saved.isPrimary ? 'It is your primary address.' : 'Your address has been saved.',
          });
          onSaved(saved);
        },
        onError,
      });
    }
  });

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-label={address ? 'Edit address' : 'New address'}
      className="flex flex-col gap-4"
    >
      <FormField id="address-line1" label="Address line 1" error={errors.addressLine1}>
        {(control) => (
          <Input
            {...control}
            name="addressLine1"
            autoComplete="address-line1"
            maxLength={200}
            value={values.addressLine1}
            onChange={(event) => update('addressLine1', event.target.value)}
          />
        )}
      </FormField>
      <FormField id="address-line2" label="Address line 2" optional error={errors.addressLine2}>
        {(control) => (
          <Input
            {...control}
            name="addressLine2"
            autoComplete="address-line2"
            maxLength={200}
            placeholder="e.g. Apt 4B"
            value={values.addressLine2}
            onChange={(event) => update('addressLine2', event.target.value)}
          />
        )}
      </FormField>
      <div className="grid grid-cols-2 items-start gap-4 sm:grid-cols-[minmax(0,1fr)_6rem_9rem]">
        <FormField id="address-city" label="City" error={errors.city} className="col-span-2 sm:col-span-1">
          {(control) => (
            <Input
              {...control}
              name="city"
              autoComplete="address-level2"
              maxLength={100}
              value={values.city}
              onChange={(event) => update('city', event.target.value)}
            />
          )}
        </FormField>
        <FormField id="address-state" label="State" error={errors.state}>
          {(control) => (
            <Input
              {...control}
              name="state"
              autoComplete="address-level1"
              maxLength={50}
              placeholder="e.g. IL"
              value={values.state}
              onChange={(event) => update('state', event.target.value)}
            />
          )}
        </FormField>
        <FormField id="address-zip" label="ZIP code" error={errors.zipCode}>
          {(control) => (
            <Input
              {...control}
              name="zipCode"
              autoComplete="postal-code"
              inputMode="numeric"
              maxLength={10}
              placeholder="e.g. 62701"
              value={values.zipCode}
              onChange={(event) => update('zipCode', event.target.value)}
            />
          )}
        </FormField>
      </div>
      <FormField id="address-country" label="Country" hint="Only US addresses are supported.">
        {(control) => <Input {...control} value="United States (US)" readOnly />}
      </FormField>

      <div className="flex flex-col gap-3 rounded-lg border border-dashed p-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p id="address-validate-hint" className="text-sm text-muted-foreground">
            {canValidateAddress(values)
              ? 'Optional: check the ZIP code and find the location.'
              : 'Fill in address line 1, city, state and ZIP code to validate.'}
          </p>
          <Button
            variant="outline"
            onClick={onValidate}
            disabled={!isValidateEnabled}
            aria-describedby="address-validate-hint"
          >
            {validate.isPending ? (
              <LoaderCircle className="animate-spin" aria-hidden="true" />
            ) : (
              <MapPinned aria-hidden="true" />
            )}
            {validate.isPending ? 'Validating...' : 'Validate Address'}
          </Button>
        </div>
        <div
          ref={resultRef}
          aria-live="polite"
          data-testid="validation-result"
          data-status={validation.status}
        >
          <ValidationResult state={validation} />
        </div>
      </div>

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSaving}>
          {isSaving ? 'Saving...' : 'Save Address'}
        </Button>
      </div>
    </form>
  );
}

function ResultBox({
  tone,
  icon: Icon,
  title,
  children,
}: {
  tone: 'success' | 'warning' | 'muted';
  icon: typeof CircleCheckBig;
  title: string;
  children: string;
}) {
  return (
    <div
      className={cn(
        'flex gap-3 rounded-md p-3 text-sm',
        tone === 'success' && 'bg-success text-success-foreground',
        tone === 'warning' && 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
        tone === 'muted' && 'bg-muted text-foreground',
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="flex flex-col gap-0.5">
        <p className="font-semibold">{title}</p>
        <p>{children}</p>
      </div>
    </div>
  );
}

function ValidationResult({ state }: { state: AddressValidationState }) {
  if (state.status === 'idle') return null;
  if (state.status === 'unavailable') {
    return (
      <ResultBox tone="muted" icon={CircleAlert} title={VALIDATION_UNAVAILABLE_TITLE}>
        {VALIDATION_UNAVAILABLE_DESCRIPTION}
      </ResultBox>
    );
  }
  const location = `Location found at ${formatCoordinate(state.latitude)}, ${formatCoordinate(state.longitude)}.`;
  if (state.isVerified) {
    return (
      <ResultBox tone="success" icon={CircleCheckBig} title="Address verified">
        {`${location} The form now shows the standard spelling.`}
      </ResultBox>
    );
  }
  return (
    <ResultBox tone="warning" icon={TriangleAlert} title="Address not verified">
      {`${location} The ZIP code does not match the state; check both. You can still save it.`}
    </ResultBox>
  );
}
