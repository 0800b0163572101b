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
 * The slot whose label a page shows as its first pickup time, given the slots offered before the
 * page asked for them (`before`) and after (`after`). A slot is offered until it is less than an
 * hour away (docs/product-rules.md, Addresses, availability and slots), so across a half hour the first can go: the page's
 * first is then the first of `before` still offered when the page asked, which is one of those
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
 * In an open list of pickup times, the second, or the only one. The first can come within the hour
 * while a test goes on to pay, and would then be refused; the second is half an hour further.
 */
export async function secondOrOnlyOption(page: Page): Promise<Locator> {
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  return (await options.count()) > 1 ? options.nth(1) : options.first();
}
