import { Minus, Plus } from 'lucide-react';
import { Button } from '../../../components/ui/button';

interface QuantityControlProps {
  itemName: string;
  quantity: number;
  onChange: (quantity: number) => void;
  /**
   * The cart page keeps at least 1 (docs/rules/screens-buyer.md, Cart and checkout screens); the sheet
   * lets the last one go.
   */
  minimum?: 0 | 1;
  /**
   * The stock the catalog last reported: + stops there (docs/rules/screens-buyer.md, Cart and checkout
   * screens). None: no limit known.
   */
  maximum?: number;
  size?: 'sm' | 'default';
}

/** Minus, the quantity, plus: each button says which item it changes. */
export function QuantityControl({
  itemName,
  quantity,
  onChange,
  minimum = 0,
  maximum = Number.POSITIVE_INFINITY,
  size = 'default',
}: QuantityControlProps) {
  const buttonClass = size === 'sm' ? 'size-8' : 'size-9';
  return (
    <div className="inline-flex items-center gap-1" role="group" aria-label={`Quantity of ${itemName}`}>
      <Button
        variant="outline"
        size="icon"
        className={buttonClass}
        onClick={() => onChange(quantity - 1)}
        disabled={quantity - 1 < minimum}
        aria-label={`Decrease quantity of ${itemName}`}
      >
        <Minus aria-hidden="true" />
      </Button>
      <span className="min-w-8 text-center text-sm font-semibold tabular-nums" aria-live="polite">
        {quantity}
      </span>
      <Button
        variant="outline"
        size="icon"
        className={buttonClass}
        onClick={() => onChange(quantity + 1)}
        disabled={quantity + 1 > maximum}
        aria-label={`Increase quantity of ${itemName}`}
      >
        <Plus aria-hidden="true" />
      </Button>
    </div>
  );
}
