import type { APIRequestContext } from '@playwright/test';
import { test, expect, signUpFresh } from './support/fixtures';
import { choosePickupTime, firstOfferedSlot, offeredSlots, slotToPay, type Slot } from './support/slots';
import { cartButton } from './support/header';

/**
 * Times in one zone everywhere (docs/rules/running.md, Dates and times): a browser set to
 * Chicago, to UTC or to Tokyo sees the same pickup labels, at checkout and on the payment page,
 * because every time is shown in the marketplace time zone (America/Chicago in these tests).
 */

const MARKETPLACE_TZ = 'America/Chicago';

interface Row {
  id: string;
  name: string;
  available: boolean;
  stock: number;
  offerPickup: boolean;
  sellerId: string;
}

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), url).toBe(200);
  return (await response.json()) as T;
}

/** A product with pickup whose seller offers slots, and the seller's slots. */
async function pickupProduct(request: APIRequestContext): Promise<{ product: Row; slots: Slot[] }> {
  for (const product of await getJson<Row[]>(request, '/api/products?limit=100')) {
    if (!product.available || product.stock < 3 || !product.offerPickup) continue;
    const slots = await offeredSlots(request, product.sellerId);
    if (slots.length > 1) return { product, slots };
  }
  throw new Error('the demo catalog has no product with pickup slots');
}

/** "CST" or "CDT" for that instant in the marketplace zone, as this (Node) process spells it. */
function marketplaceAbbreviation(datetime: string): string {
  return (
    new Intl.DateTimeFormat('en-US', { timeZone: MARKETPLACE_TZ, timeZoneName: 'short' })
      .formatToParts(new Date(datetime))
      .find((part) => part.type === 'timeZoneName')?.value ?? ''
  );
}

for (const timezoneId of ['America/Chicago', 'UTC', 'Asia/Tokyo']) {
  test.describe(`a browser in ${timezoneId}`, () => {
    test.use({ timezoneId });

    test('sees the pickup labels of the marketplace zone at checkout and on the payment page', async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await signUpFresh(page);
      const { product, slots } = await pickupProduct(page.request);

      await page.goto(`/products/${product.id}`);
      // The browser really is in that zone.
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timezoneId);
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await expect(cartButton(page)).toHaveText('1');
      await page.goto('/checkout');
      await page.getByRole('radio', { name: /Pickup/ }).click();

      // A day, then a time of that day: the first slot's own label, cut in two.
      const picker = page.getByTestId(`pickup-seller-${product.sellerId}`);
      const dayBox = picker.getByRole('combobox', { name: 'Pickup day' });
      await expect(dayBox).toBeVisible();
      const shownDay = await dayBox.textContent();
      await picker.getByRole('combobox', { name: 'Pickup time' }).click();
      const firstOption = page.getByRole('option').first();
      await expect(firstOption).toBeVisible();
      const shown = `${shownDay} · ${await firstOption.textContent()}`;
      const later = await offeredSlots(page.request, product.sellerId);
      const first = firstOfferedSlot(shown, slots, later);
      await page.keyboard.press('Escape');
      await expect(picker.getByTestId(`text-pickup-zone-${product.sellerId}`)).toHaveText(
        `Times are in Central Time (${marketplaceAbbreviation(first.datetime)}), the marketplace's time zone.`,
      );

      // Another day asks for a time again, on that day's own times.
      const [day] = first.label.split(' · ');
      const otherDaySlot = later.find((slot) => !slot.label.startsWith(`${day} · `));
      if (otherDaySlot) {
        const [otherDay, otherTime] = otherDaySlot.label.split(' · ');
        await picker.getByRole('combobox', { name: 'Pickup day' }).click();
        await page.getByRole('option', { name: otherDay, exact: true }).click();
        await expect(picker.getByRole('combobox', { name: 'Pickup time' })).toHaveText('Select a time');
        await picker.getByRole('combobox', { name: 'Pickup time' }).click();
        await expect(page.getByRole('option').first()).toHaveText(otherTime ?? '');
        await page.keyboard.press('Escape');
      }

      // The buyer chooses a time, and the note names the zone of that time.
      const chosen = await slotToPay(page.request, product.sellerId);
      await choosePickupTime(page, picker, chosen);
      await expect(picker.getByTestId(`text-pickup-zone-${product.sellerId}`)).toHaveText(
        `Times are in Central Time (${marketplaceAbbreviation(chosen.datetime)}), the marketplace's time zone.`,
      );

      // The payment page shows the very same label, with the zone, not the browser's clock.
      const proceed = page.getByRole('button', { name: 'Proceed to Payment' });
      await expect(proceed).toBeEnabled();
      await proceed.click();
      await expect(page).toHaveURL(/\/payment$/);
      await expect(page.getByTestId(`text-payment-pickup-time-${product.sellerId}`)).toHaveText(
        `Pickup ${chosen.label} ${marketplaceAbbreviation(chosen.datetime)}`,
      );
    });
  });
}
