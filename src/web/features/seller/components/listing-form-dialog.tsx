import { useState, type FormEvent, type ReactNode } from 'react';
import type { Category } from '@domain/categories';
import {
  createProductBodySchema,
  MAX_PRODUCT_IMAGES,
  PRODUCT_DESCRIPTION_MAX,
  updateProductBodySchema,
  type SellerProduct,
} from '@domain/listings';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage, isUnauthorizedError } from '../../../lib/api-client';
import { reportLoggedOut, toastMutationError } from '../../../lib/mutation-errors';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { ProductImagesError, useSaveProduct } from '../api/save-product';
import {
  effectiveCategory,
  listingInput,
  NEW_LISTING,
  sameImages,
  unsavedImageLines,
  unsavedImagesTitle,
  valuesOfProduct,
  type ListingFormValues,
} from '../listing-form';

/** What the dialog is open for: a new listing, or the listing being edited. */
export type ListingDialogTarget = { mode: 'create' } | { mode: 'edit'; product: SellerProduct };

/** The images field is drawn by the page (the uploader belongs to another feature). */
export interface ListingImagesFieldProps {
  value: readonly string[];
  onChange: (next: string[]) => void;
  max: number;
  disabled: boolean;
  subject: string;
}

/** Texts of the listing dialog (docs/rules/screens-work.md, Seller screens). */
export const CREATE_FAILED = 'Failed to create product';
export const UPDATE_FAILED = 'Failed to update product';

function CheckboxField({
  id,
  label,
  hint,
  checked,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled: boolean;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        className="mt-0.5 size-4 shrink-0 accent-primary"
      />
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}

function ListingForm({
  product,
  categories,
  categoriesFailed,
  renderImagesField,
  onDone,
}: {
  product: SellerProduct | undefined;
  categories: readonly Category[];
  categoriesFailed: boolean;
  renderImagesField: (props: ListingImagesFieldProps) => ReactNode;
  onDone: () => void;
}) {
  const { formRef, values, errors, setValue, validateWith, showServerErrors } = useSchemaForm({
    // A new listing's schema; a change is checked with its own below.
    schema: createProductBodySchema,
    initialValues: () => (product ? valuesOfProduct(product) : NEW_LISTING),
    toInput: (typed: ListingFormValues) => listingInput(typed, effectiveCategory(typed, categories)),
    whenEdited: 'clear-field-error',
  });
  const save = useSaveProduct();
  const category = effectiveCategory(values, categories);
  const isSaving = save.isPending;

  const onSaved = (saved: SellerProduct) => {
    toast({
      title: product ? 'Listing updated' : 'Listing created',
      description: product ? `${saved.name} was saved.` : `${saved.name} is now on sale.`,
    });
    onDone();
  };

  const onFailed = (error: unknown) => {
    if (error instanceof ProductImagesError) {
      // The listing exists; its images can be saved again by editing it.
      onDone();
      if ([error.cause, ...error.failures.map((failure) => failure.error)].some(isUnauthorizedError)) {
        reportLoggedOut();
        return;
      }
      const lines = unsavedImageLines(error);
      const reason = errorMessage(error.cause, '');
      toast({
        title: unsavedImagesTitle(error),
        description:
          lines.length > 0 ? (
            <span className="grid gap-0.5" data-testid="text-unsaved-images">
              {lines.map((line) => (
                <span key={line}>{line}</span>
              ))}
            </span>
          ) : (
            reason || undefined
          ),
        variant: 'destructive',
      });
      return;
    }
    const serverFields = showServerErrors(error);
    // "Failed to create product"; a 401 says "You are logged out. Logging in again..." and signs in
    // again after 500 ms (docs/rules/screens-work.md, Seller screens). A refused edit says why (a 409).
    toastMutationError(error, product ? UPDATE_FAILED : CREATE_FAILED, {
      appendServerMessage: Boolean(product) && !serverFields,
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!category) return;
    if (product) {
      const parsed = validateWith(updateProductBodySchema);
      if (!parsed.ok) return;
      save.mutate(
        {
          mode: 'edit',
          id: product.id,
          body: parsed.data,
          imageUrls: values.imageUrls,
          imagesChanged: !sameImages(values.imageUrls, product.imageUrls),
        },
        { onSuccess: onSaved, onError: onFailed },
      );
      return;
    }
    const parsed = validateWith(createProductBodySchema);
    if (!parsed.ok) return;
    save.mutate(
      { mode: 'create', body: parsed.data, imageUrls: values.imageUrls },
      { onSuccess: onSaved, onError: onFailed },
    );
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="grid gap-5">
      <FormField id="listing-name" label="Name" error={errors.name}>
        {(control) => (
          <Input
            {...control}
            value={values.name}
            onChange={(event) => setValue('name', event.currentTarget.value)}
            disabled={isSaving}
            autoComplete="off"
          />
        )}
      </FormField>

      <FormField id="listing-description" label="Description" optional error={errors.description}>
        {(control) => (
          <Textarea
            {...control}
            value={values.description}
            onChange={(event) => setValue('description', event.currentTarget.value)}
            disabled={isSaving}
            maxLength={PRODUCT_DESCRIPTION_MAX}
            className="min-h-20"
          />
        )}
      </FormField>

      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <FormField id="listing-price" label="Price ($)" error={errors.price}>
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              value={values.price}
              onChange={(event) => setValue('price', event.currentTarget.value)}
              disabled={isSaving}
            />
          )}
        </FormField>
        <FormField id="listing-stock" label="Stock" error={errors.stock}>
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={values.stock}
              onChange={(event) => setValue('stock', event.currentTarget.value)}
              disabled={isSaving}
            />
          )}
        </FormField>
      </div>

      <FormField
        id="listing-category"
        label="Category"
        error={errors.category ?? (categoriesFailed ? 'The categories could not be loaded.' : undefined)}
      >
        {(control) => (
          <Select
            value={category}
            onValueChange={(next) => setValue('category', next)}
            disabled={isSaving || categories.length === 0}
          >
            <SelectTrigger {...control}>
              <SelectValue placeholder="Choose a category" />
            </SelectTrigger>
            <SelectContent>
              {categories.map((option) => (
                <SelectItem key={option.id} value={option.name}>
                  {option.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      </FormField>

      <fieldset className="grid gap-4 rounded-lg border p-4">
        <legend className="px-1 text-sm font-medium">Delivery options</legend>
        <CheckboxField
          id="listing-offer-pickup"
          label="Offer pickup"
          hint="Buyers may collect it at your primary address, at one of your pickup times."
          checked={values.offerPickup}
          onChange={(checked) => setValue('offerPickup', checked)}
          disabled={isSaving}
        />
        <CheckboxField
          id="listing-seller-delivery"
          label="I deliver it myself"
          hint="You take it to the buyer instead of a driver, and keep the whole delivery fee."
          checked={values.sellerDelivery}
          onChange={(checked) => setValue('sellerDelivery', checked)}
          disabled={isSaving}
        />
        {values.sellerDelivery ? (
          <FormField
            id="listing-seller-delivery-fee"
            label="Your delivery fee ($)"
            optional
            hint="Leave it empty to deliver for free."
            error={errors.sellerDeliveryFee}
            className="sm:pl-7"
          >
            {(control) => (
              <Input
                {...control}
                type="number"
                inputMode="decimal"
                min={0}
                step={0.01}
                value={values.sellerDeliveryFee}
                onChange={(event) => setValue('sellerDeliveryFee', event.currentTarget.value)}
                disabled={isSaving}
                className="sm:max-w-48"
              />
            )}
          </FormField>
        ) : null}
        <CheckboxField
          id="listing-requires-trailer"
          label="Needs a trailer"
          hint="Too big for a car: a driver with a trailer delivers it, for a higher delivery fee."
          checked={values.requiresTrailer}
          onChange={(checked) => setValue('requiresTrailer', checked)}
          disabled={isSaving}
        />
      </fieldset>

      <div className="grid gap-2">
        <span className="text-sm font-medium leading-none" id="listing-images-label">
          Images
        </span>
        <p className="text-sm text-muted-foreground">
          Up to {MAX_PRODUCT_IMAGES} images of at most 10 MB each. The first is the one buyers see first.
        </p>
        {renderImagesField({
          value: values.imageUrls,
          onChange: (next) => setValue('imageUrls', next),
          max: MAX_PRODUCT_IMAGES,
          disabled: isSaving,
          subject: values.name.trim() || 'this listing',
        })}
        {errors.imageUrl || errors.imageUrls ? (
          <p className="text-sm font-medium text-destructive">{errors.imageUrl ?? errors.imageUrls}</p>
        ) : null}
      </div>

      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={isSaving}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSaving || !category}>
          {isSaving ? 'Saving...' : product ? 'Save Changes' : 'Create Listing'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * The create-listing dialog, and the same form to edit a listing (docs/rules/screens-work.md, Seller
 * screens): defaults price '0', stock 0, first category; submit disabled without a category; the
 * seller delivery fee only with seller delivery; up to 10 images, the first primary.
 */
export function ListingFormDialog({
  target,
  onClose,
  categories,
  categoriesFailed,
  renderImagesField,
}: {
  target: ListingDialogTarget | null;
  onClose: () => void;
  categories: readonly Category[];
  categoriesFailed: boolean;
  renderImagesField: (props: ListingImagesFieldProps) => ReactNode;
}) {
  // The form stays while the dialog animates closed; Radix unmounts it once closed.
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  const product = shown?.mode === 'edit' ? shown.product : undefined;
  return (
    <Dialog open={target !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{product ? 'Edit Listing' : 'Create New Listing'}</DialogTitle>
          <DialogDescription>
            {product
              ? 'Changes apply to new orders; orders already placed keep their prices.'
              : 'Describe what you sell, set its price and stock, and add pictures.'}
          </DialogDescription>
        </DialogHeader>
        {shown ? (
          <ListingForm
            key={product?.id ?? 'new'}
            product={product}
            categories={categories}
            categoriesFailed={categoriesFailed}
            renderImagesField={renderImagesField}
            onDone={onClose}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
