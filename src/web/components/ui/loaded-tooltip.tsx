import { useState, type PointerEvent, type ReactNode } from 'react';
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './tooltip-delays';

/**
 * When the last tooltip closed. Each tooltip has a provider of its own (one around the whole app
 * would put Radix in the first load), so the skip delay between triggers is kept here: within
 * TOOLTIP_SKIP_DELAY_MS of one closing, the next opens at once, as Radix's shared provider does.
 */
let lastClosedAt = Number.NEGATIVE_INFINITY;

/** The tooltip of `WithTooltip`, loaded after the first render. */
export function LoadedTooltip({ label, children }: { label: ReactNode; children: ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);
  const onOpenChange = (open: boolean) => {
    if (!open) lastClosedAt = performance.now();
    setIsOpen(open);
  };
  // Runs before Radix's own handler; preventing the default skips Radix's delayed opening.
  const onPointerMove = (event: PointerEvent) => {
    if (event.pointerType === 'touch') return;
    if (isOpen) {
      event.preventDefault();
    } else if (performance.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS) {
      event.preventDefault();
      setIsOpen(true);
    }
  };
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <TooltipPrimitive.Root open={isOpen} onOpenChange={onOpenChange}>
        <TooltipPrimitive.Trigger asChild onPointerMove={onPointerMove}>
          {children}
        </TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content
            sideOffset={4}
            className="z-50 overflow-hidden rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow-md data-[state=delayed-open]:animate-fade-in"
          >
            {label}
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
