import { Store, Truck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import type { DeliveryMethod } from '../checkout-rules';

interface MethodOptionProps {
  value: DeliveryMethod;
  checked: boolean;
  disabled?: boolean;
  title: string;
  description: string;
  icon: ReactNode;
  onSelect: (value: DeliveryMethod) => void;
}

function MethodOption({ value, checked, disabled, title, description, icon, onSelect }: MethodOptionProps) {
  const id = `delivery-method-${value}`;
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        checked ? 'border-primary bg-accent/60' : 'hover:bg-accent/40',
        disabled && 'cursor-not-allowed opacity-60 hover:bg-transparent',
      )}
    >
      <input
        type="radio"
        id={id}
        name="delivery-method"
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => onSelect(value)}
        className="mt-1 size-4 accent-[var(--primary)]"
      />
      <span className="flex min-w-0 flex-col gap-1">
        <span className="flex items-center gap-2 font-medium">
          {icon}
          {title}
        </span>
        <span className="text-sm text-muted-foreground">{description}</span>
      </span>
    </label>
  );
}

/**
 * Delivery by default; pickup only when every item offers it (docs/rules/screens-buyer.md, Cart and checkout
 * screens; docs/rules/catalog-and-orders.md, Checkout and orders).
 */
export function DeliveryMethodSection({
  method,
  pickupAvailable,
  onChange,
}: {
  method: DeliveryMethod;
  pickupAvailable: boolean;
  onChange: (method: DeliveryMethod) => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" id="delivery-method-heading">
          Delivery Method
        </CardTitle>
        <CardDescription>How would you like to receive your order?</CardDescription>
      </CardHeader>
      <CardContent>
        <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <legend className="sr-only">Delivery method</legend>
          <MethodOption
            value="delivery"
            checked={method === 'delivery'}
            title="Delivery"
            description="Delivered to your address."
            icon={<Truck className="size-4" aria-hidden="true" />}
            onSelect={onChange}
          />
          <MethodOption
            value="pickup"
            checked={method === 'pickup'}
            disabled={!pickupAvailable}
            title="Pickup"
            description={
              pickupAvailable
                ? 'Collect from the seller at a time you choose. No delivery fee.'
                : 'Available only when every item in your cart offers pickup.'
            }
            icon={<Store className="size-4" aria-hidden="true" />}
            onSelect={onChange}
          />
        </fieldset>
      </CardContent>
    </Card>
  );
}
