import { useState } from 'react';

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
