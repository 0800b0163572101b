import { useEffect, useRef, useState } from 'react';

/**
 * The order a person chose in a list, kept until a link asks for another one (`?order=`, as a
 * toast's View or a notification opens): then the link's order is the one shown
 * (docs/rules/screens-buyer.md, Order screens).
 */
export function useChosenOrder(requestedId: string | null): [string | null, (orderId: string) => void] {
  const [chosen, setChosen] = useState<{ orderId: string; requestedId: string | null } | null>(null);
  const chosenId = chosen && chosen.requestedId === requestedId ? chosen.orderId : null;
  return [chosenId, (orderId: string) => setChosen({ orderId, requestedId })];
}

/** Below the lg breakpoint the details sit under the list. */
function isStacked(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 1023px)').matches;
}

/**
 * The selected order's details, brought into view on a phone, where they sit under the whole list:
 * when the person chooses an order (`showDetails`), and once when a link's order (`?order=`, where
 * paying lands, a toast's View) is shown (docs/rules/screens-buyer.md, Order screens).
 */
export function useOrderDetailsInView(requestedId: string | null, selectedId: string | null) {
  const detailsRef = useRef<HTMLDivElement>(null);
  const showDetails = () => {
    if (!isStacked()) return;
    // At once for those who ask for reduced motion (isStacked checked matchMedia exists).
    const behavior = window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
    window.setTimeout(() => detailsRef.current?.scrollIntoView({ behavior, block: 'start' }), 0);
  };
  const shownRequestId = useRef<string | null>(null);
  const isRequestedShown = requestedId !== null && selectedId === requestedId;
  useEffect(() => {
    if (!isRequestedShown || shownRequestId.current === requestedId) return;
    shownRequestId.current = requestedId;
    showDetails();
  });
  return { detailsRef, showDetails };
}
