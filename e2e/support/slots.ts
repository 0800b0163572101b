import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

export interface Slot {
  datetime: string;
  label: string;
}

/** A seller's pickup slots as the API offers them now. */
export async function offeredSlots(request: APIRequestContext, sellerId: string): Promise<Slot[]> {
  const response = await request.get(`/api/availability/slots/${sellerId}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Slot[];
}

/**
 * The slot whose label a page shows as its first pickup time, given the slots offered before the page asked
 * for them (`before`) and after (`after`). A slot is offered until it is less than an hour away
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots), so across a half hour the first can
 * go: the page's first is then the first of `before` still offered when the page asked, which is one of those
 * gone by `after` or the first still there. Fails when the label is none of those.
 */
export function firstOfferedSlot(shown: string, before: readonly Slot[], after: readonly Slot[]): Slot {
  const firstStillOffered = before.findIndex((slot) =>
    after.some((later) => later.datetime === slot.datetime),
  );
  const candidates = before.slice(0, Math.max(firstStillOffered, 0) + 1);
  const slot = candidates.find((candidate) => candidate.label === shown);
  expect(slot, `the first pickup time shown, "${shown}", among ${JSON.stringify(candidates)}`).toBeDefined();
  return slot as Slot;
}

/**
 * The pickup time a test chooses when it goes on to pay: the second offered. The first can come
 * within the hour while the test runs, and the payment would then be refused; the second is at
 * least half an hour further.
 */
export async function slotToPay(request: APIRequestContext, sellerId: string): Promise<Slot> {
  const [first, second] = await offeredSlots(request, sellerId);
  const slot = second ?? first;
  if (!slot) throw new Error('the seller offers no pickup time');
  return slot;
}

/** Chooses a slot in a seller's pickup picker at checkout: its day, then its time. */
export async function choosePickupTime(page: Page, picker: Locator, slot: Slot): Promise<void> {
  const [day, time] = slot.label.split(' · ');
  await picker.getByRole('combobox', { name: 'Pickup day' }).click();
  await page.getByRole('option', { name: day, exact: true }).click();
  await picker.getByRole('combobox', { name: 'Pickup time' }).click();
  await page.getByRole('option', { name: time, exact: true }).click();
  await expect(picker.getByRole('combobox', { name: 'Pickup time' })).toHaveText(time ?? '');
}
