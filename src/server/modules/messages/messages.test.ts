import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { buy, createAddress, createProduct, type OrderJson } from '../../testing/commerce';
import { messages, orders, productMessages } from '../../db/schema';
import { MESSAGE_EMPTY, MESSAGE_MAX_LENGTH } from '../../../domain/messages';
import { DIRECTION_CONTROL_MESSAGE } from '../../../domain/visible-text';

/**
 * Product and order conversations (docs/rules/selling.md, Reviews and messages): who may read and
 * write them, what may be sent, the unread counts and the sending limit.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

interface Scene {
  buyer: TestUser;
  seller: TestUser;
  driver: TestUser;
  otherBuyer: TestUser;
  otherSeller: TestUser;
  otherDriver: TestUser;
  admin: TestUser;
  order: OrderJson;
  productId: string;
}

/** A buyer's paid order from a seller with a driver assigned, and people who are not its parties. */
async function scene(): Promise<Scene> {
  const buyer = await signedInAs(t, 'buyer', { firstName: 'Bea', lastName: 'Buyer' });
  const seller = await signedInAs(t, 'seller', { firstName: 'Sol', lastName: 'Seller' });
  const driver = await signedInAs(t, 'driver', { isVerified: true, firstName: 'Dee', lastName: 'Driver' });
  const otherBuyer = await signedInAs(t, 'buyer');
  const otherSeller = await signedInAs(t, 'seller');
  const otherDriver = await signedInAs(t, 'driver', { isVerified: true });
  const admin = await signedInAs(t, 'admin');
  const address = await createAddress(t, buyer.id);
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, { name: 'Walnut Chair', stock: 5 });
  const [order] = await buy(t, buyer, {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: address.id,
  });
  if (!order) throw new Error('no order');
  await t.database.db.update(orders).set({ driverId: driver.id }).where(eq(orders.id, order.id));
  return { buyer, seller, driver, otherBuyer, otherSeller, otherDriver, admin, order, productId: product.id };
}

const get = (user: TestUser | undefined, url: string) => as(t, user, { method: 'GET', url });
const post = (user: TestUser | undefined, url: string, payload: Record<string, unknown>) =>
  as(t, user, { method: 'POST', url, payload });

interface OrderMessageJson {
  id: string;
  senderId: string;
  content: string;
  sender: { firstName: string | null; role: string };
}

interface ProductMessageJson {
  id: string;
  buyerId: string;
  sellerId: string;
  senderId: string;
  content: string;
}

describe('order messages', () => {
  it('are read and written by the buyer, the seller, the assigned driver and admins, oldest first', async () => {
    const s = await scene();
    const url = `/api/messages/order/${s.order.id}`;
    const texts = [
      [s.buyer, 'When will it arrive?'],
      [s.seller, 'It leaves today.'],
      [s.driver, 'On my way, ten minutes.'],
      [s.admin, 'Checking in on this order.'],
    ] as const;
    for (const [user, content] of texts) {
      const sent = await post(user, '/api/messages', { orderId: s.order.id, content });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    for (const user of [s.buyer, s.seller, s.driver, s.admin]) {
      const read = await get(user, url);
      expect(read.statusCode).toBe(200);
      const list = read.json<OrderMessageJson[]>();
      expect(list.map((m) => m.content)).toEqual(texts.map(([, content]) => content));
      expect(list.map((m) => m.sender.role)).toEqual(['buyer', 'seller', 'driver', 'admin']);
      expect(list[0]?.sender.firstName).toBe('Bea');
    }
  });

  it('answer 404 to anyone else, who can neither read nor post, and store nothing for them', async () => {
    const s = await scene();
    await post(s.buyer, '/api/messages', { orderId: s.order.id, content: 'Private question' });
    for (const user of [s.otherBuyer, s.otherSeller, s.otherDriver]) {
      const read = await get(user, `/api/messages/order/${s.order.id}`);
      expect(read.statusCode).toBe(404);
      expect(read.body).not.toContain('Private question');
      const sent = await post(user, '/api/messages', { orderId: s.order.id, content: 'Let me in' });
      expect(sent.statusCode).toBe(404);
      expect(sent.json()).toMatchObject({ message: 'Order not found' });
    }
    // An unknown order is the same 404: nobody learns which orders exist.
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await get(s.otherBuyer, `/api/messages/order/${unknown}`)).statusCode).toBe(404);
    expect((await get(undefined, `/api/messages/order/${s.order.id}`)).statusCode).toBe(401);
    const stored = await t.database.db.select().from(messages).where(eq(messages.orderId, s.order.id));
    expect(stored.map((m) => m.content)).toEqual(['Private question']);
  });

  it('refuse blank and whitespace-only messages and messages over 2,000 characters, and trim the rest', async () => {
    const s = await scene();
    for (const content of ['', '   ', '\n\t \n']) {
      const sent = await post(s.buyer, '/api/messages', { orderId: s.order.id, content });
      expect(sent.statusCode).toBe(400);
      expect(sent.json().fields).toHaveProperty('content');
    }
    const tooLong = await post(s.buyer, '/api/messages', {
      orderId: s.order.id,
      content: 'x'.repeat(MESSAGE_MAX_LENGTH + 1),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fields.content).toBe('A message has at most 2,000 characters');
    const longest = await post(s.buyer, '/api/messages', {
      orderId: s.order.id,
      content: 'y'.repeat(MESSAGE_MAX_LENGTH),
    });
    expect(longest.statusCode).toBe(201);
    const trimmed = await post(s.buyer, '/api/messages', {
      orderId: s.order.id,
      content: '  line one\nline two \n',
    });
    expect(trimmed.json<OrderMessageJson>().content).toBe('line one\nline two');
    // Invisible characters are no message (docs/rules/running.md, Bad input and failure).
    const invisible = await post(s.buyer, '/api/messages', {
      orderId: s.order.id,
      content: '\u200B\u200D\uFEFF',
    });
    expect(invisible.statusCode).toBe(400);
    expect(invisible.json().fields).toEqual({ content: MESSAGE_EMPTY });
    // Nobody else's id can be slipped in as the sender.
    const spoofed = await post(s.buyer, '/api/messages', {
      orderId: s.order.id,
      content: 'Hello',
      senderId: s.seller.id,
    });
    expect(spoofed.statusCode).toBe(400);
  });
});

describe('text that shows what it says (docs/rules/running.md, Bad input and failure)', () => {
  it('keeps a family emoji joined with zero-width joiners whole, and drops stray zero-width spaces', async () => {
    const s = await scene();
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
    const sent = await post(s.buyer, '/api/messages', {
      orderId: s.order.id,
      content: `See you soon${'\u200B'} ${family}`,
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json<OrderMessageJson>().content).toBe(`See you soon ${family}`);
    const read = await get(s.seller, `/api/messages/order/${s.order.id}`);
    expect(read.json<OrderMessageJson[]>().map((message) => message.content)).toContain(
      `See you soon ${family}`,
    );
    const [stored] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.id, sent.json<OrderMessageJson>().id));
    expect(stored?.content).toBe(`See you soon ${family}`);
  });

  it('refuses a direction-changing character in a product message', async () => {
    const s = await scene();
    const sent = await post(s.buyer, '/api/product-messages', {
      productId: s.productId,
      content: 'Is it \u202Ewen?',
    });
    expect(sent.statusCode).toBe(400);
    expect(sent.json().fields).toEqual({ content: DIRECTION_CONTROL_MESSAGE });
  });
});

describe('product messages', () => {
  it('keep one conversation per product and buyer, which another buyer cannot read or join', async () => {
    const s = await scene();
    const sent = await post(s.buyer, '/api/product-messages', {
      productId: s.productId,
      content: 'Does it come assembled?',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json<ProductMessageJson>()).toMatchObject({
      buyerId: s.buyer.id,
      sellerId: s.seller.id,
      senderId: s.buyer.id,
    });

    // Another buyer sees their own (empty) conversation, never the first buyer's.
    const own = await get(s.otherBuyer, `/api/product-messages?productId=${s.productId}`);
    expect(own.json()).toEqual([]);
    const peek = await get(
      s.otherBuyer,
      `/api/product-messages?productId=${s.productId}&buyerId=${s.buyer.id}`,
    );
    expect(peek.statusCode).toBe(404);
    expect(peek.body).not.toContain('assembled');
    const butt = await post(s.otherBuyer, '/api/product-messages', {
      productId: s.productId,
      buyerId: s.buyer.id,
      content: 'Me too',
    });
    expect(butt.statusCode).toBe(404);
    // Nor does another seller, or an admin: the conversation is the buyer's and the seller's.
    for (const user of [s.otherSeller, s.admin]) {
      const read = await get(user, `/api/product-messages?productId=${s.productId}&buyerId=${s.buyer.id}`);
      expect(read.statusCode).toBe(404);
    }

    // The seller names the buyer whose conversation to read and answer.
    const unnamed = await get(s.seller, `/api/product-messages?productId=${s.productId}`);
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().fields).toHaveProperty('buyerId');
    const answer = await post(s.seller, '/api/product-messages', {
      productId: s.productId,
      buyerId: s.buyer.id,
      content: 'Yes, fully assembled.',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const thread = await get(s.buyer, `/api/product-messages?productId=${s.productId}`);
    expect(thread.json<ProductMessageJson[]>().map((m) => [m.senderId, m.content])).toEqual([
      [s.buyer.id, 'Does it come assembled?'],
      [s.seller.id, 'Yes, fully assembled.'],
    ]);
    const stored = await t.database.db
      .select()
      .from(productMessages)
      .where(eq(productMessages.productId, s.productId));
    expect(stored).toHaveLength(2);
  });

  it('let a seller answer only a buyer who wrote, never open a conversation with anyone they name', async () => {
    const s = await scene();
    const cold = await post(s.seller, '/api/product-messages', {
      productId: s.productId,
      buyerId: s.otherBuyer.id,
      content: 'Buy my chair!',
    });
    expect(cold.statusCode).toBe(404);
    const toSelf = await post(s.seller, '/api/product-messages', {
      productId: s.productId,
      content: 'Hello me',
    });
    expect(toSelf.statusCode).toBe(400);
    const unknown = await post(s.buyer, '/api/product-messages', {
      productId: '00000000-0000-4000-8000-000000000000',
      content: 'Anyone?',
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      await t.database.db.select().from(productMessages).where(eq(productMessages.productId, s.productId)),
    ).toEqual([]);
  });
});

interface UnreadJson {
  total: number;
  threads: { kind: string; count: number; as: string; orderNumber?: string; withName?: string }[];
}

describe('unread counts', () => {
  it('count messages by others until the reader opens the conversation', async () => {
    const s = await scene();
    await post(s.buyer, '/api/product-messages', { productId: s.productId, content: 'Is it oak?' });
    await post(s.buyer, '/api/product-messages', { productId: s.productId, content: 'Or walnut?' });
    await post(s.driver, '/api/messages', { orderId: s.order.id, content: 'Arriving soon' });

    const sellerUnread = (await get(s.seller, '/api/messages/unread')).json<UnreadJson>();
    expect(sellerUnread.total).toBe(3);
    expect(sellerUnread.threads).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'product', count: 2, as: 'seller', withName: 'Bea Buyer' }),
        expect.objectContaining({ kind: 'order', count: 1, as: 'seller', orderNumber: s.order.orderNumber }),
      ]),
    );
    // The sender's own messages never count for them.
    expect((await get(s.driver, '/api/messages/unread')).json<UnreadJson>().total).toBe(0);

    const threads = await get(s.seller, '/api/product-messages/threads');
    expect(threads.json()).toEqual([
      expect.objectContaining({
        productId: s.productId,
        productName: 'Walnut Chair',
        buyerId: s.buyer.id,
        buyerName: 'Bea Buyer',
        messageCount: 2,
        unreadCount: 2,
        lastMessage: expect.objectContaining({ content: 'Or walnut?', senderId: s.buyer.id }),
      }),
    ]);

    // Opening the product conversation clears its count, and only its count.
    await get(s.seller, `/api/product-messages?productId=${s.productId}&buyerId=${s.buyer.id}`);
    const afterProduct = (await get(s.seller, '/api/messages/unread')).json<UnreadJson>();
    expect(afterProduct.total).toBe(1);
    expect(afterProduct.threads.map((thread) => thread.kind)).toEqual(['order']);
    await get(s.seller, `/api/messages/order/${s.order.id}`);
    expect((await get(s.seller, '/api/messages/unread')).json<UnreadJson>().total).toBe(0);

    // Answering counts for the buyer.
    await post(s.seller, '/api/product-messages', {
      productId: s.productId,
      buyerId: s.buyer.id,
      content: 'Oak.',
    });
    const buyerUnread = (await get(s.buyer, '/api/messages/unread')).json<UnreadJson>();
    expect(buyerUnread.threads).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'product', count: 1, as: 'buyer', withName: 'Sol Seller' }),
      ]),
    );
  });
});

describe('sending limit', () => {
  it('answers 429 once a user has sent too many messages in a minute, product and order together', async () => {
    const limited = await createTestApp({ rateLimits: { messagesPerUserPerMinute: 3 } });
    try {
      const buyer = await signedInAs(limited, 'buyer');
      const seller = await signedInAs(limited, 'seller');
      const address = await createAddress(limited, buyer.id);
      const product = await createProduct(limited, seller.id);
      const [order] = await buy(limited, buyer, {
        items: [{ productId: product.id, quantity: 1 }],
        isPickup: false,
        deliveryAddressId: address.id,
      });
      if (!order) throw new Error('no order');
      const send = (url: string, payload: Record<string, unknown>) =>
        as(limited, buyer, { method: 'POST', url, payload });
      expect((await send('/api/messages', { orderId: order.id, content: 'one' })).statusCode).toBe(201);
      expect(
        (await send('/api/product-messages', { productId: product.id, content: 'two' })).statusCode,
      ).toBe(201);
      expect((await send('/api/messages', { orderId: order.id, content: 'three' })).statusCode).toBe(201);
      const fourth = await send('/api/product-messages', { productId: product.id, content: 'four' });
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json().message).toMatch(/^You have sent many messages in a short time/);
      // Another sender has a count of their own.
      const answer = await as(limited, seller, {
        method: 'POST',
        url: '/api/product-messages',
        payload: { productId: product.id, buyerId: buyer.id, content: 'Hello' },
      });
      expect(answer.statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
