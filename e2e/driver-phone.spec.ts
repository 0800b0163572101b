import type { Locator, Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { approvedDriver, offerIn, type Place } from './support/drivers';
import { orderDetails } from './support/orders';

/**
 * A driver's day on a phone (docs/rules/screens-work.md, Driver dashboard): the offers are the
 * first screen, and the next step of a delivery is at hand.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** On the first screen of the phone, as the page opened: no scrolling needed to reach it. */
async function expectOnFirstScreen(page: Page, target: Locator) {
  await expect(target).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const box = await target.boundingBox();
  if (!box) throw new Error('no box');
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
}

/**
 * The first test's own town: offers are listed nearest first, then oldest, so an older offer at the
 * same distance (the other test's, in Springfield, running at the same time) would come first.
 */
const PEORIA: Place = { addressLine1: '1 Main St', city: 'Peoria', state: 'IL', zipCode: '61602' };

test('a new offer is on the first screen and is accepted without scrolling; the delivery opens with its way there', async ({
  browser,
}) => {
  const driver = await approvedDriver(browser, PEORIA);
  const { order, buyer } = await offerIn(browser, {
    place: PEORIA,
    productName: 'Walnut Bookcase',
    quantity: 2,
  });
  try {
    const page = driver.page;
    await page.goto('/driver/dashboard');
    await expect(page.getByRole('tab', { name: 'Available Orders' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const accept = page.getByTestId(`button-accept-${order.id}`);
    await expectOnFirstScreen(page, accept);
    await accept.tap();

    // Accepted: the delivery's next step and its directions come first.
    await expect(page.getByRole('tab', { name: /^My Deliveries/ })).toHaveAttribute('aria-selected', 'true');
    const actions = page.getByTestId('card-delivery-actions');
    await expect(actions.getByRole('heading', { name: order.orderNumber })).toBeVisible();
    await expectOnFirstScreen(page, page.getByRole('button', { name: 'Start Delivery', exact: true }));
    const toPickup = actions.getByRole('link', { name: /^To pickup/ });
    await expect(toPickup).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=/,
    );
    await actions.getByLabel('Map app').selectOption('OpenStreetMap');
    await expect(toPickup).toHaveAttribute('href', /^https:\/\/www\.openstreetmap\.org\/directions\?/);
    await expect(actions.getByRole('link', { name: /^To drop-off/ })).toHaveAttribute(
      'href',
      /to=9\+Elm\+St/,
    );
    // The delivery card names both ends.
    await expect(page.getByTestId(`text-card-pickup-${order.id}`)).toContainText('Peoria, IL 61602');
    await expect(page.getByTestId(`text-card-dropoff-${order.id}`)).toContainText('9 Elm St');
  } finally {
    await buyer.context.close();
    await driver.context.close();
  }
});

test('a mistaken Decline is undone; an accepted order is handed back before Start Delivery and offered to others again', async ({
  browser,
}) => {
  const driver = await approvedDriver(browser);
  const other = await approvedDriver(browser);
  const { order, buyer } = await offerIn(browser, { productName: 'Cedar Chest', quantity: 3 });
  try {
    const page = driver.page;
    await page.goto('/driver/dashboard');
    const card = page.getByTestId(`card-available-${order.id}`);
    // The offer says what is carried, and what the trip earns.
    await expect(card.getByTestId(`list-available-items-${order.id}`)).toHaveText('3 × Cedar Chest');
    await expect(card).toContainText('You earn');

    // Declined by mistake, and undone.
    await card.getByTestId(`button-decline-${order.id}`).tap();
    const undo = page.getByTestId(`button-undo-decline-${order.id}`);
    await undo.tap();
    await expect(page.getByTestId(`button-accept-${order.id}`)).toBeVisible();
    await page.reload();
    await page.getByTestId(`button-accept-${order.id}`).tap();

    // Accepted, then handed back before setting off.
    await expect(page.getByRole('tab', { name: /^My Deliveries/ })).toHaveAttribute('aria-selected', 'true');
    await page.getByTestId(`button-hand-back-${order.id}`).tap();
    await page
      .getByRole('alertdialog', { name: 'Hand this order back?' })
      .getByRole('button', { name: 'Hand Back' })
      .tap();
    await expect(page.getByText('Order handed back', { exact: true })).toBeVisible();
    await expect(page.getByTestId(`card-order-${order.id}`)).toHaveCount(0);

    // Another driver is offered it again and takes it; the buyer's timeline says what happened.
    await other.page.goto('/driver/dashboard');
    await other.page.getByTestId(`button-accept-${order.id}`).tap();
    await expect(other.page.getByRole('tab', { name: /^My Deliveries/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await buyer.page.goto(`/buyer/orders?order=${order.id}`);
    await expect(orderDetails(buyer.page, order)).toContainText('Driver handed back');
  } finally {
    await buyer.context.close();
    await other.context.close();
    await driver.context.close();
  }
});
