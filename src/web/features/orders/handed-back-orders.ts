/**
 * The orders handed back from this page (docs/rules/screens-work.md, Driver dashboard). The offer event
 * that follows a hand back is news to the other drivers, not to the driver who gave it back; an
 * offer event names nobody (never the buyer), so the page remembers its own hand backs.
 */
const handedBack = new Set<string>();

export function rememberHandedBack(orderId: string): void {
  handedBack.add(orderId);
}

export function isHandedBackHere(orderId: string): boolean {
  return handedBack.has(orderId);
}
