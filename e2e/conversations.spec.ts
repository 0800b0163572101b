import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { test, expect, signInAs, DEMO } from './support/fixtures';
import { orderDetails, partyButton } from './support/orders';
import { unreadMessagesButton } from './support/header';

/**
 * Conversations, reviews and live updates (docs/rules/selling.md, Reviews and messages;
 * docs/rules/live-updates.md, Live updates), with two people signed in in two browsers: the buyer asks about
 * a product, the seller sees the question arrive without reloading and answers, and the buyer sees the answer
 * the same way. Both boxes poll only every 30 s, far longer than these expectations wait, so only the event
 * stream can make them pass. After the order is delivered, both review each other and the ratings show in the
 * profile dialog.
 */

interface ProductRow {
  id: string;
  name: string;
  available: boolean;
  stock: number;
  requiresTrailer: boolean;
  sellerDelivery: boolean;
  sellerId: string;
}

interface Me {
  id: string;
  firstName: string | null;
  lastName: string | null;
}

async function json<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  const body: T = await response.json();
  return body;
}

const fullName = (user: Me) => `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();

/** Console errors of a page the fixture does not watch (the second browser). */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/** Pays for one unit with the test card; answers the order's id and number. */
async function buyOne(request: APIRequestContext, productId: string) {
  const addresses = await json<{ id: string; isPrimary: boolean }[]>(request, '/api/addresses');
  const address = addresses.find((candidate) => candidate.isPrimary) ?? addresses[0];
  if (!address) throw new Error('the demo buyer has no address');
  const payment = await request.post('/api/payments', {
    data: { items: [{ productId, quantity: 1 }], isPickup: false, deliveryAddressId: address.id },
  });
  expect(payment.status(), await payment.text()).toBe(201);
  const { paymentId } = (await payment.json()) as { paymentId: string };
  const confirmed = await request.post(`/api/payments/${paymentId}/confirm`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Demo Buyer' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { orders } = (await confirmed.json()) as { orders: { id: string; orderNumber: string }[] };
  const order = orders[0];
  if (!order) throw new Error('no order made');
  return order;
}

test('the buyer asks, the seller answers live; after delivery both review each other', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const buyer = page;
  await buyer.goto('/');
  await signInAs(buyer, DEMO.buyer);
  const sellerContext = await browser.newContext();
  const seller = await sellerContext.newPage();
  const sellerConsole = watchConsole(seller);
  // Signed in before the first page, so the page never asks for the user as a visitor (a 401).
  await signInAs(seller, DEMO.seller);

  const buyerMe = await json<Me>(buyer.request, '/api/auth/user');
  const sellerMe = await json<Me>(seller.request, '/api/auth/user');
  const products = await json<ProductRow[]>(buyer.request, '/api/products?limit=100');
  // A product the seller delivers themself, so the seller can bring the order to "delivered".
  const product = products
    .filter(
      (row) =>
        row.sellerId === sellerMe.id &&
        row.available &&
        row.stock >= 5 &&
        row.sellerDelivery &&
        !row.requiresTrailer,
    )
    .at(-1);
  if (!product) throw new Error('the demo seller has no product they deliver themselves');

  // The seller waits on their Messages.
  await seller.goto('/seller/dashboard?tab=messages');
  // The dashboard's Messages, not the Messages of an order shown above it: the one titled at level 2.
  const sellerMessages = seller
    .getByRole('region', { name: 'Messages', exact: true })
    .filter({ has: seller.getByRole('heading', { level: 2, name: 'Messages', exact: true }) });
  await expect(sellerMessages.getByRole('heading', { name: 'Messages', exact: true })).toBeVisible();
  await expect(sellerMessages.getByText(/Loading messages/)).toHaveCount(0);
  // The panel is drawn after the page hydrates: wait until it has read the seller's conversations
  // (their list, or the words that there are none), as the seller sees before the buyer writes.
  await expect(
    sellerMessages
      .getByRole('list', { name: 'Conversations' })
      .or(sellerMessages.getByText(/^No messages yet\. Questions buyers ask/)),
  ).toBeVisible();

  // The buyer asks on the product page: Enter sends, Shift+Enter adds a line.
  await buyer.goto(`/products/${product.id}`);
  const card = buyer.getByRole('region', { name: 'Message the seller' });
  await expect(card.getByRole('heading', { name: 'Message the seller' })).toBeVisible();
  const question = `Does the ${product.name} come assembled?`;
  const box = card.getByRole('textbox', { name: 'Message to the seller' });
  await box.fill(question);
  await box.press('Shift+Enter');
  await box.pressSequentially('Thanks!');
  await expect(box).toHaveValue(`${question}\nThanks!`);
  await box.press('Enter');
  await expect(box).toHaveValue('');
  await expect(card.getByRole('log', { name: 'Messages' })).toContainText(question);

  // The seller sees it arrive without reloading, opens it and answers.
  const thread = sellerMessages
    .getByRole('list', { name: 'Conversations' })
    .getByRole('button')
    .filter({ hasText: fullName(buyerMe) })
    .filter({ hasText: question });
  await expect(thread).toBeVisible();
  await thread.click();
  const conversation = sellerMessages.getByRole('region', {
    name: `Conversation with ${fullName(buyerMe)} about ${product.name}`,
  });
  await expect(conversation.getByRole('log', { name: 'Messages' })).toContainText(question);
  const answer = 'Yes, it comes fully assembled.';
  const reply = conversation.getByRole('textbox', { name: `Answer to ${fullName(buyerMe)}` });
  await reply.fill(answer);
  await reply.press('Enter');
  await expect(conversation.getByRole('log', { name: 'Messages' })).toContainText(answer);
  await expectNoAccessibilityViolations(seller);

  // The buyer sees the answer arrive where they are.
  await expect(card.getByRole('log', { name: 'Messages' })).toContainText(answer);
  await expectNoAccessibilityViolations(buyer);

  // Away from the product, a new answer shows in the header's unread count, cleared once opened.
  await buyer.goto('/buyer/orders');
  await expect(buyer.getByRole('heading', { name: 'My Orders' })).toBeVisible();
  await reply.fill('Delivery is free this week.');
  await reply.press('Enter');
  await expect(unreadMessagesButton(buyer)).toHaveAccessibleName('Messages: 1 unread');
  await expect(unreadMessagesButton(buyer)).toHaveText('1');
  await unreadMessagesButton(buyer).click();
  await buyer.getByRole('menuitem', { name: product.name }).click();
  await expect(buyer).toHaveURL(`/products/${product.id}`);
  await expect(card.getByRole('log', { name: 'Messages' })).toContainText('Delivery is free this week.');
  await expect(unreadMessagesButton(buyer)).toHaveAccessibleName('Messages: nothing unread');

  // The buyer orders it; the seller brings it and marks it delivered.
  const order = await buyOne(buyer.request, product.id);
  for (const status of ['in-transit', 'delivered']) {
    const moved = await seller.request.patch(`/api/orders/${order.id}/status`, { data: { status } });
    expect(moved.status(), await moved.text()).toBe(200);
  }

  // The buyer reviews the seller from the order.
  await buyer.goto(`/buyer/orders?order=${order.id}`);
  const buyerPrompts = buyer.getByTestId('review-prompts');
  await expect(buyerPrompts.getByRole('heading', { name: 'Leave a Review' })).toBeVisible();
  await expect(orderDetails(buyer, order).getByRole('log', { name: 'Messages' })).toBeVisible();
  await expectNoAccessibilityViolations(buyer);
  const sellerForm = buyerPrompts.getByRole('form', { name: `Review of ${fullName(sellerMe)}, Seller` });
  await sellerForm.getByRole('radio', { name: '5 stars' }).click();
  // Unique to this order: the demo seller collects reviews from every run against this server.
  const sellerComment = `Quick answers and a careful delivery (${order.id.slice(0, 8)}).`;
  await sellerForm.getByRole('textbox').fill(sellerComment);
  await sellerForm.getByRole('button', { name: 'Submit Review' }).click();
  // Nobody is left to review on this order: the panel goes.
  await expect(buyerPrompts).toHaveCount(0);

  // The seller reviews the buyer from the same order.
  await seller.goto(`/seller/dashboard?order=${order.id}`);
  await expect(orderDetails(seller, order)).toBeVisible();
  const sellerPrompts = seller.getByTestId('review-prompts');
  const buyerForm = sellerPrompts.getByRole('form', { name: `Review of ${fullName(buyerMe)}, Buyer` });
  await buyerForm.getByRole('radio', { name: '4 stars' }).click();
  const buyerComment = `Clear questions, paid at once (${order.id.slice(0, 8)}).`;
  await buyerForm.getByRole('textbox').fill(buyerComment);
  await buyerForm.getByRole('button', { name: 'Submit Review' }).click();
  await expect(sellerPrompts).toHaveCount(0);

  // The ratings show in each other's profile.
  await partyButton(orderDetails(buyer, order), 'Seller').click();
  const sellerProfile = buyer.getByTestId('dialog-user-profile');
  const sellerReview = sellerProfile.getByTestId('profile-review').filter({ hasText: sellerComment });
  await expect(sellerReview.getByTestId('text-review-rating')).toHaveText('5/5');
  await expect(sellerProfile.getByTestId('text-profile-rating')).toContainText(/\d\.\d \(\d+ reviews?\)/);

  await partyButton(orderDetails(seller, order), 'Buyer').click();
  const buyerProfile = seller.getByTestId('dialog-user-profile');
  const buyerReview = buyerProfile.getByTestId('profile-review').filter({ hasText: buyerComment });
  await expect(buyerReview.getByTestId('text-review-rating')).toHaveText('4/5');
  // The demo buyer may hold reviews of earlier runs against this server: the figures are the API's.
  const buyerRating = await json<{ averageRating: number; totalReviews: number }>(
    seller.request,
    `/api/reviews/user/${buyerMe.id}`,
  );
  const reviewWord = buyerRating.totalReviews === 1 ? 'review' : 'reviews';
  await expect(buyerProfile.getByTestId('text-profile-rating')).toContainText(
    `${buyerRating.averageRating.toFixed(1)} (${buyerRating.totalReviews} ${reviewWord})`,
  );
  await expectNoAccessibilityViolations(seller);

  // The product page shows the seller's real rating now.
  await buyer.keyboard.press('Escape');
  await buyer.goto(`/products/${product.id}`);
  await expect(buyer.getByTestId('text-product-rating')).toHaveText(/^Seller rated \d\.\d \(\d+ reviews?\)$/);

  await sellerContext.close();
  expect(sellerConsole, 'console errors in the seller page').toEqual([]);
});
