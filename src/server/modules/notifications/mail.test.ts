import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { and, eq, sql } from 'drizzle-orm';
import {
  createTestApp,
  as,
  createUser,
  signedInAs,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import { buy, createAddress, createProduct } from '../../testing/commerce';
import { makeAccountReady, moveOrder, orderInTransit, verifiedDriver } from '../../testing/payout-scenes';
import { addresses, orders, outbox, payouts, users } from '../../db/schema';
import type { PayoutTransfers } from '../../adapters/payouts/payout-provider';
import { PayoutRefusedError } from '../../adapters/payouts/payout-errors';
import { payPayout } from '../payouts/pay-payout';
import { OUTBOX_RETRY_DELAYS_MS } from '../../platform/outbox';
import { formatUsd, parseCents } from '../../../domain/money';
import { queueMail } from './mail-layout';

/**
 * Mail through a real SMTP server started here (docs/decisions/0019-reaching-people.md, Mail): each
 * message the app sends is received by `smtp-server` and parsed by `mailparser`, as a mail client
 * would read it.
 */

interface Received {
  rcpt: string[];
  mail: ParsedMail;
}

const received: Received[] = [];
/** While set, the server answers every connection "421 try again later". */
let refusing = false;
let server: SMTPServer;
let t: TestApp;
/** How far the app's clock runs ahead of the real one (the outbox's rows are stamped by the database). */
let ahead = 0;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (!refusing) return callback();
      const error = Object.assign(new Error('Service not available, try again later'), { responseCode: 421 });
      return callback(error);
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('gone-')) {
        const error = Object.assign(new Error('No such user here'), { responseCode: 550 });
        return callback(error);
      }
      return callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ rcpt: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  t = await createTestApp({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Local Delivery Marketplace <no-reply@market.example>',
      SUPPORT_EMAIL: 'help@market.example',
      PUBLIC_URL: 'https://market.example',
    },
    now: () => new Date(Date.now() + ahead),
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
  refusing = false;
});

/** Runs the notifications timer's work once and answers the mail received meanwhile. */
async function deliver(): Promise<Received[]> {
  const before = received.length;
  await t.app.runNotifications();
  return received.slice(before);
}

function to(mail: Received): string {
  return mail.rcpt.join(',');
}

/** "Label: value" lines of a mail's text. */
function rowsOf(mail: Received): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of (mail.mail.text ?? '').split('\n')) {
    const match = /^(.+?): (.+)$/.exec(line);
    if (match?.[1] && match[2]) rows.set(match[1], match[2]);
  }
  return rows;
}

async function optIn(user: TestUser, offerAlerts = true) {
  const response = await as(t, user, {
    method: 'PATCH',
    url: '/api/auth/user/email-preferences',
    payload: { offerAlerts },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ offerAlerts });
}

/** Moves the user's primary address about 800 miles away (New York). */
async function moveFarAway(userId: string) {
  await t.database.db
    .update(addresses)
    .set({
      latitude: '40.7128000',
      longitude: '-74.0060000',
      city: 'New York',
      state: 'NY',
      zipCode: '10001',
    })
    .where(eq(addresses.userId, userId));
}

describe('order mail', () => {
  it('sends the buyer a receipt equal to the stored order, the seller the new order, an opted-in driver nearby the offer, and nobody else', async () => {
    const buyer = await signedInAs(t, 'buyer', { firstName: 'Bailey' });
    const seller = await signedInAs(t, 'seller', { firstName: 'Sam' });
    await createAddress(t, seller.id);
    const deliveryAddress = await createAddress(t, buyer.id);
    const stool = await createProduct(t, seller.id, { name: 'Oak Stool', price: '12.35' });
    const lamp = await createProduct(t, seller.id, { name: 'Brass Lamp', price: '3.99' });

    const nearOptedIn = await verifiedDriver(t);
    await optIn(nearOptedIn);
    const nearOptedOut = await verifiedDriver(t);
    const nearTurnedOff = await verifiedDriver(t);
    await optIn(nearTurnedOff);
    await optIn(nearTurnedOff, false);
    const farOptedIn = await verifiedDriver(t);
    await optIn(farOptedIn);
    await moveFarAway(farOptedIn.id);
    const unverified = await signedInAs(t, 'driver');
    await createAddress(t, unverified.id);
    await optIn(unverified);
    await deliver();

    const [order] = await buy(t, buyer, {
      items: [
        { productId: stool.id, quantity: 3 },
        { productId: lamp.id, quantity: 1 },
      ],
      isPickup: false,
      deliveryAddressId: deliveryAddress.id,
    });
    if (!order) throw new Error('no order');
    const mail = await deliver();
    expect(mail.map(to).sort()).toEqual([buyer.email, seller.email, nearOptedIn.email].sort());
    for (const other of [nearOptedOut, nearTurnedOff, farOptedIn, unverified])
      expect(mail.map(to)).not.toContain(other.email);

    const [stored] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    if (!stored) throw new Error('no stored order');
    const receipt = mail.find((m) => to(m) === buyer.email);
    if (!receipt) throw new Error('no receipt');
    expect(receipt.mail.subject).toBe(`Your receipt for order ${stored.orderNumber}`);
    expect(receipt.mail.from?.value).toEqual([
      { name: 'Local Delivery Marketplace', address: 'no-reply@market.example' },
    ]);
    const rows = rowsOf(receipt);
    expect(rows.get('Oak Stool × 3')).toBe('$37.05');
    expect(rows.get('Brass Lamp × 1')).toBe('$3.99');
    expect(rows.get('Subtotal')).toBe(formatUsd(parseCents(stored.productSubtotal)));
    expect(rows.get('Delivery fee')).toBe(formatUsd(parseCents(stored.deliveryFee)));
    expect(rows.get('Total')).toBe(formatUsd(parseCents(stored.total)));
    expect(parseCents(stored.productSubtotal)).toBe(3705 + 399);
    expect(receipt.mail.html).toContain(formatUsd(parseCents(stored.total)));
    expect(receipt.mail.text).toContain(`https://market.example/buyer/orders?order=${order.id}`);

    const forSeller = mail.find((m) => to(m) === seller.email);
    expect(forSeller?.mail.subject).toBe(`New order ${stored.orderNumber}`);
    expect(forSeller?.mail.text).toContain('Oak Stool × 3');

    const offer = mail.find((m) => to(m) === nearOptedIn.email);
    expect(offer?.mail.subject).toBe(`New delivery offer near you: order ${stored.orderNumber}`);
    // Drivers never see a price (docs/rules/deliveries.md, Deliveries).
    expect(offer?.mail.text).not.toContain('$');
    expect(offer?.mail.html).not.toContain('$');
    expect(rowsOf(offer as Received).get('Delivery area')).toBe('Springfield, IL 62701');

    // Each status change: the buyer only.
    expect(
      (await as(t, nearOptedIn, { method: 'POST', url: `/api/orders/${order.id}/assign` })).statusCode,
    ).toBe(200);
    let step = await deliver();
    expect(step.map(to)).toEqual([buyer.email]);
    expect(step[0]?.mail.subject).toBe(`A driver accepted order ${stored.orderNumber}`);

    expect((await moveOrder(t, nearOptedIn, order.id, 'in-transit')).statusCode).toBe(200);
    step = await deliver();
    expect(step.map(to)).toEqual([buyer.email]);
    expect(step[0]?.mail.subject).toBe(`Order ${stored.orderNumber} is out for delivery`);

    // Delivered: the buyer is told, and the seller's and driver's payouts go out to ready accounts.
    await makeAccountReady(t, seller.id);
    await makeAccountReady(t, nearOptedIn.id);
    expect((await moveOrder(t, nearOptedIn, order.id, 'delivered')).statusCode).toBe(200);
    step = await deliver();
    expect(step.map((m) => `${to(m)} ${m.mail.subject}`).sort()).toEqual(
      [
        `${buyer.email} Order ${stored.orderNumber} was delivered`,
        `${seller.email} Payout of ${formatUsd(parseCents(stored.sellerEarnings))} sent`,
        `${nearOptedIn.email} Payout of ${formatUsd(parseCents(stored.driverEarnings))} sent`,
      ].sort(),
    );

    // An admin refunds part of it: the buyer is told.
    const admin = await signedInAs(t, 'admin');
    const refund = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${order.id}/refund`,
      payload: { amount: '5.00', reason: 'A scratched lamp' },
    });
    expect(refund.statusCode).toBe(200);
    step = await deliver();
    expect(step.map(to)).toEqual([buyer.email]);
    expect(step[0]?.mail.subject).toBe(`Refund of $5.00 for order ${stored.orderNumber}`);
  });

  it('sends no offer mail about an order taken before the mail went out', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    await createAddress(t, seller.id);
    const deliveryAddress = await createAddress(t, buyer.id);
    const product = await createProduct(t, seller.id, { name: 'Pine Shelf' });
    const watcher = await verifiedDriver(t);
    await optIn(watcher);
    const taker = await verifiedDriver(t);
    await deliver();
    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: deliveryAddress.id,
    });
    if (!order) throw new Error('no order');
    expect((await as(t, taker, { method: 'POST', url: `/api/orders/${order.id}/assign` })).statusCode).toBe(
      200,
    );
    const mail = await deliver();
    expect(mail.map((m) => `${to(m)} ${m.mail.subject}`).sort()).toEqual(
      [
        `${buyer.email} Your receipt for order ${order.orderNumber}`,
        `${seller.email} New order ${order.orderNumber}`,
        `${buyer.email} A driver accepted order ${order.orderNumber}`,
      ].sort(),
    );
  });

  it("sends no offer mail to the order's own seller or buyer, though each is a driver near it", async () => {
    // A verified driver who also sells, and another who buys from them: both near the pickup.
    const sellerDriver = await verifiedDriver(t);
    await optIn(sellerDriver);
    const buyerDriver = await verifiedDriver(t);
    await optIn(buyerDriver);
    const other = await verifiedDriver(t);
    await optIn(other);
    await deliver();
    const product = await createProduct(t, sellerDriver.id, { name: 'Ash Crate' });
    const [deliveryAddress] = await t.database.db
      .select()
      .from(addresses)
      .where(eq(addresses.userId, buyerDriver.id));
    if (!deliveryAddress) throw new Error('no address');
    const [order] = await buy(t, buyerDriver, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: deliveryAddress.id,
    });
    if (!order) throw new Error('no order');
    const offers = (await deliver()).filter((m) => m.mail.subject?.startsWith('New delivery offer'));
    // Drivers of the other tests may be near too: only these three are this test's.
    expect(offers.map(to)).toContain(other.email);
    expect(offers.map(to)).not.toContain(sellerDriver.email);
    expect(offers.map(to)).not.toContain(buyerDriver.email);
  });

  it('tells a seller a payout the provider refused for good, and nobody else', async () => {
    const s = await orderInTransit(t);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    await deliver();
    // The seller's payout was refused four times already: the fifth refusal is final.
    await t.database.db
      .update(payouts)
      .set({ status: 'pending', refusals: 4 })
      .where(and(eq(payouts.orderId, s.order.id), eq(payouts.kind, 'seller')));
    const [row] = await t.database.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.orderId, s.order.id), eq(payouts.kind, 'seller')));
    if (!row) throw new Error('no payout');
    await makeAccountReady(t, s.seller.id);
    const refusing: PayoutTransfers = {
      transfer: () => Promise.reject(new PayoutRefusedError('The account cannot receive transfers')),
      reverseTransfer: () => Promise.reject(new Error('not used')),
      findTransfer: () => Promise.resolve(null),
    };
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    expect(
      await payPayout(
        {
          db: t.database.db,
          payouts: refusing,
          now: () => new Date(),
          log,
          siteUrl: 'https://market.example',
        },
        row,
      ),
    ).toBe('refused');
    const mail = await deliver();
    expect(mail.map((m) => `${to(m)} ${m.mail.subject}`)).toEqual([
      `${s.seller.email} Your payout of ${formatUsd(parseCents(row.amount))} could not be sent`,
    ]);
    expect(mail[0]?.mail.text).toContain('https://market.example/seller/dashboard');
  });

  it('tells a driver the verification decision', async () => {
    const admin = await signedInAs(t, 'admin');
    const driver = await createUser(t, { roles: ['buyer', 'driver'] });
    await t.database.db
      .update(users)
      .set({
        vehicleImageUrl: `/objects/uploads/${crypto.randomUUID()}`,
        licenseImageUrl: `/objects/uploads/${crypto.randomUUID()}`,
      })
      .where(eq(users.id, driver.id));
    await deliver();
    const approve = await as(t, admin, {
      method: 'PATCH',
      url: `/api/admin/drivers/${driver.id}/verify`,
      payload: { isVerified: true },
    });
    expect(approve.statusCode).toBe(200);
    const mail = await deliver();
    expect(mail.map((m) => `${to(m)} ${m.mail.subject}`)).toEqual([
      `${driver.email} You are verified to deliver`,
    ]);
  });
});

describe('the contact form', () => {
  it('queues the message to the support address with the sender as reply-to, sent by the timer', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        subject: 'Late order',
        // Line breaks in the message stay in the body, and add no header.
        message: 'My order is late.\r\nBcc: evil@example.com\r\n\r\nThanks',
      },
    });
    expect(response.statusCode).toBe(201);
    const [mail] = await deliver();
    expect(mail?.rcpt).toEqual(['help@market.example']);
    expect(mail?.mail.subject).toBe('[Support] Late order');
    expect(mail?.mail.replyTo?.value.map((a) => a.address)).toEqual(['ada@example.com']);
    expect(mail?.mail.headers.has('bcc')).toBe(false);
    expect(mail?.mail.text).toContain('Bcc: evil@example.com');
  });

  it('refuses a line break in the subject, the name or the phone with a 400 naming the field', async () => {
    for (const [field, value, message] of [
      ['subject', 'Hello\r\nBcc: evil@example.com', 'Subject must be on one line'],
      ['name', 'Ada\nBcc: evil@example.com', 'Name must be on one line'],
      ['phone', '555\r\nBcc: evil@example.com', 'Phone number must be on one line'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          subject: 'Late order',
          message: 'My order has not arrived yet.',
          [field]: value,
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ [field]: message });
    }
    expect(await deliver()).toEqual([]);
  });

  it('keeps every header on one line whatever a template is given', async () => {
    await queueMail(t.database.db, {
      kind: 'injection_probe',
      userId: null,
      content: {
        to: 'probe@example.com',
        subject: 'Hello\r\nBcc: evil@example.com\r\nX-Injected: yes',
        greetingName: 'Eve\r\nX-Name: yes',
        paragraphs: ['Body\r\n\r\nX-Body: yes'],
        replyTo: 'reply@example.com',
      },
    });
    // Stored single-line (renderMail), whatever the SMTP library would make of it.
    const [row] = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'injection_probe'));
    expect((row?.payload as { subject: string }).subject).toBe('Hello Bcc: evil@example.com X-Injected: yes');
    const [mail] = await deliver();
    expect(mail?.rcpt).toEqual(['probe@example.com']);
    expect(mail?.mail.subject).toBe('Hello Bcc: evil@example.com X-Injected: yes');
    for (const header of ['bcc', 'x-injected', 'x-name', 'x-body'])
      expect(mail?.mail.headers.has(header)).toBe(false);
  });
});

describe('sending', () => {
  it('retries while the SMTP server refuses, and sends the mail exactly once when it recovers', async () => {
    refusing = true;
    await queueMail(t.database.db, {
      kind: 'retry_probe',
      userId: null,
      content: { to: 'later@example.com', subject: 'Try again', paragraphs: ['Hello'] },
    });
    const report = await t.app.runNotifications();
    expect(report).toMatchObject({ sent: 0, retried: 1 });
    const [row] = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'retry_probe'));
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row?.lastError).toMatch(/421/);
    expect(received.filter((m) => to(m) === 'later@example.com')).toEqual([]);

    refusing = false;
    // Not due yet: nothing goes.
    expect(await deliver()).toEqual([]);
    ahead += OUTBOX_RETRY_DELAYS_MS[0]!;
    expect((await deliver()).map(to)).toEqual(['later@example.com']);
    ahead += 86_400_000;
    expect(await deliver()).toEqual([]);
    expect(received.filter((m) => to(m) === 'later@example.com')).toHaveLength(1);
    const [sent] = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'retry_probe'));
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('gives each mail a Message-ID of its own, the same when a crash makes it go again', async () => {
    for (const address of ['first-id@example.com', 'second-id@example.com'])
      await queueMail(t.database.db, {
        kind: 'message_id_probe',
        userId: null,
        content: { to: address, subject: 'Hello', paragraphs: ['Hello'] },
      });
    const sent = await deliver();
    expect(sent.map(to).sort()).toEqual(['first-id@example.com', 'second-id@example.com']);
    const ids = sent.map((mail) => mail.mail.messageId);
    for (const id of ids) expect(id).toMatch(/^<outbox-\d+\.[0-9a-f]{10}@market\.example>$/);
    expect(new Set(ids).size).toBe(2);

    // The server crashed after the SMTP server took the first mail and before its row said so: the
    // row's claim runs out and the mail goes again, as the same message.
    const first = sent.find((mail) => to(mail) === 'first-id@example.com');
    await t.database.db
      .update(outbox)
      .set({
        status: 'queued',
        finishedAt: null,
        lockedUntil: null,
        nextAttemptAt: new Date(Date.now() + ahead - 1000),
      })
      .where(
        and(eq(outbox.kind, 'message_id_probe'), sql`${outbox.payload}->>'to' = 'first-id@example.com'`),
      );
    const again = await deliver();
    expect(again.map(to)).toEqual(['first-id@example.com']);
    expect(again[0]?.mail.messageId).toBe(first?.mail.messageId);
  });

  it('drops a mail whose recipient the server refuses for good (550)', async () => {
    await queueMail(t.database.db, {
      kind: 'gone_probe',
      userId: null,
      content: { to: 'gone-user@example.com', subject: 'Hello', paragraphs: ['Hello'] },
    });
    expect(await t.app.runNotifications()).toMatchObject({ dropped: 1, retried: 0 });
    const [row] = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'gone_probe'));
    expect(row?.status).toBe('dropped');
    expect(row?.lastError).toMatch(/550/);
  });
});

describe('the admin Mail tab', () => {
  it('lists the mail newest first with its state and text, to admins only', async () => {
    await queueMail(t.database.db, {
      kind: 'tab_probe',
      userId: null,
      content: { to: 'tab@example.com', subject: 'For the tab', paragraphs: ['Readable here'] },
    });
    await deliver();
    const admin = await signedInAs(t, 'admin');
    const page = await as(t, admin, { method: 'GET', url: '/api/admin/mail' });
    expect(page.statusCode).toBe(200);
    const [newest] = page.json().items;
    expect(newest).toMatchObject({
      to: 'tab@example.com',
      subject: 'For the tab',
      kind: 'tab_probe',
      status: 'sent',
      attempts: 1,
      lastError: null,
    });
    expect(newest.text).toContain('Readable here');
    expect(newest.finishedAt).not.toBeNull();
    expect(page.json().total).toBeGreaterThan(1);
    const buyer = await signedInAs(t, 'buyer');
    expect((await as(t, buyer, { method: 'GET', url: '/api/admin/mail' })).statusCode).toBe(403);
  });
});
