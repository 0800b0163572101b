import { useId, useState } from 'react';
import { isClosed } from '@domain/order-status';
import type { Order } from '@domain/orders';
import type { RefundFinishedOrderBody } from '@domain/payouts';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { formatPrice } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useOrderItemsToRefund, useRefundFinishedOrder } from '../api/refund-order';

type Mode = 'whole' | 'amount' | 'items';

const toCents = (value: string | undefined) => Math.round(Number(value ?? '0') * 100);
const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * Our addition (docs/decisions/0018-money-against-stripe.md, Refunds): an admin refunds a delivered
 * or completed order — all that is left, an amount, or chosen items — after saying why and
 * confirming; the seller's, the driver's and the platform's shares are taken back in proportion.
 * A cancelled order whose refund failed for good is refunded the same way
 * (docs/decisions/0022-money-in-combinations.md, A refund that fails). Not offered once the order
 * is refunded in full.
 */
export function RefundOrderButton({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [mode, setMode] = useState<Mode>('whole');
  const [amount, setAmount] = useState('');
  const [chosen, setChosen] = useState<Record<string, number>>({});
  const refund = useRefundFinishedOrder();
  const headingId = useId();
  // A cancelled order is offered only while its own refund failed (nothing of it refunded).
  const finished = isClosed(order.status);
  const items = useOrderItemsToRefund(order.id, finished && mode === 'items');
  if (!finished || order.refundState === 'refunded') return null;
  const left = toCents(order.total) - toCents(order.refundedAmount);
  const itemsCents = (items.data ?? []).reduce(
    (sum, item) => sum + toCents(item.price) * (chosen[item.id] ?? 0),
    0,
  );
  const amountValid = /^\d{1,8}(\.\d{1,2})?$/.test(amount.trim()) && toCents(amount) > 0;
  const asked =
    mode === 'whole' ? left : mode === 'amount' ? (amountValid ? toCents(amount) : 0) : itemsCents;
  const ready = reason.trim().length > 0 && asked > 0;
  const body = (): RefundFinishedOrderBody => {
    const base = { reason: reason.trim() };
    if (mode === 'amount') return { ...base, amount: dollars(toCents(amount)) };
    if (mode === 'items')
      return {
        ...base,
        items: Object.entries(chosen)
          .filter(([, quantity]) => quantity > 0)
          .map(([orderItemId, quantity]) => ({ orderItemId, quantity })),
      };
    return base;
  };
  const confirm = () =>
    refund.mutate(
      { orderId: order.id, body: body() },
      {
        onSuccess: (refunded) => {
          toast({
            title: 'Order refunded',
            description: `${formatPrice(dollars(asked))} of ${order.orderNumber} was refunded${refunded.refundState === 'refunded' ? '; it is now refunded in full' : ''}.`,
          });
          setOpen(false);
          setReason('');
          setAmount('');
          setChosen({});
        },
        onError: (error) => {
          toastMutationError(error, 'Failed to refund order', { preferServerMessage: true });
          setOpen(false);
        },
      },
    );
  const modeId = (value: Mode) => `refund-mode-${value}-${order.id}`;
  return (
    <section className="flex flex-col gap-3 rounded-lg border p-4" aria-labelledby={headingId}>
      <div className="flex flex-col gap-1">
        <h3 id={headingId} className="text-sm font-semibold">
          Refund this finished order
        </h3>
        <p className="text-xs text-muted-foreground">
          {formatPrice(dollars(left))} of {formatPrice(order.total ?? '0')} can still be refunded.
        </p>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="sr-only">What to refund</legend>
        {(
          [
            ['whole', `Everything left (${formatPrice(dollars(left))})`],
            ['amount', 'An amount'],
            ['items', 'Chosen items'],
          ] as const
        ).map(([value, label]) => (
          <div key={value} className="flex items-center gap-2">
            <input
              type="radio"
              id={modeId(value)}
              name={`refund-mode-${order.id}`}
              value={value}
              checked={mode === value}
              onChange={() => setMode(value)}
              className="size-4 accent-primary"
            />
            <Label htmlFor={modeId(value)} className="font-normal">
              {label}
            </Label>
          </div>
        ))}
      </fieldset>
      {mode === 'amount' ? (
        <div className="flex flex-col gap-1">
          <Label htmlFor={`refund-amount-${order.id}`}>Amount ($)</Label>
          <Input
            id={`refund-amount-${order.id}`}
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            placeholder="12.34"
            className="max-w-40"
            aria-invalid={amount.trim() !== '' && (!amountValid || toCents(amount) > left)}
          />
          {amount.trim() !== '' && amountValid && toCents(amount) > left ? (
            <p className="text-xs text-destructive">Only {formatPrice(dollars(left))} is left to refund.</p>
          ) : null}
        </div>
      ) : null}
      {mode === 'items' ? (
        <ul className="flex flex-col gap-2" aria-label="Items to refund">
          {items.isLoading ? <li className="text-xs text-muted-foreground">Loading items...</li> : null}
          {(items.data ?? []).map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-2 text-sm">
              <Label htmlFor={`refund-item-${item.id}`} className="min-w-0 flex-1 font-normal">
                {item.productName} · {formatPrice(item.price ?? '0')} each
              </Label>
              <Input
                id={`refund-item-${item.id}`}
                type="number"
                min={0}
                max={item.quantity}
                value={chosen[item.id] ?? 0}
                onChange={(event) =>
                  setChosen((now) => ({
                    ...now,
                    [item.id]: Math.max(
                      0,
                      Math.min(item.quantity, Math.floor(Number(event.target.value) || 0)),
                    ),
                  }))
                }
                className="w-20"
                aria-label={`How many of ${item.productName} to refund (of ${item.quantity})`}
              />
              <span className="text-xs text-muted-foreground">of {item.quantity}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-col gap-1">
        <Label htmlFor={`refund-reason-${order.id}`}>Reason</Label>
        <Textarea
          id={`refund-reason-${order.id}`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={500}
          placeholder="Why the buyer gets the money back"
        />
      </div>
      <Button
        variant="destructive"
        className="self-start"
        disabled={!ready || asked > left}
        onClick={() => setOpen(true)}
      >
        {asked > 0 && asked <= left ? `Refund ${formatPrice(dollars(asked))}` : 'Refund Order'}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={
          asked >= left
            ? 'Refund this order in full?'
            : `Refund ${formatPrice(dollars(asked))} of this order?`
        }
        description={`The buyer gets ${formatPrice(dollars(asked))} back, and the seller's and the driver's shares of it for ${order.orderNumber} are taken back. This cannot be undone.`}
        cancelLabel="Keep Order"
        confirmLabel="Refund Order"
        pendingLabel="Refunding..."
        isPending={refund.isPending}
        onConfirm={confirm}
      />
    </section>
  );
}
