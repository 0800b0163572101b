import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { contactMessages } from '../../db/schema';
import type { MailMessage } from '../../adapters/mail/mailer';

let t: TestApp;
const sent: MailMessage[] = [];
beforeAll(async () => {
  t = await createTestApp({ mailer: { send: async (m) => void sent.push(m) } });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const valid = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '',
  subject: 'Late order',
  message: 'My order has not arrived yet.',
};

describe('POST /api/contact', () => {
  it('stores the message and queues it for the mailer, sent by the notifications timer', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/contact', payload: valid });
    expect(response.statusCode).toBe(201);
    expect(sent).toEqual([]);
    await t.app.runNotifications();
    const stored = await t.database.db.select().from(contactMessages);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: null,
      subject: 'Late order',
    });
    expect(sent.at(-1)).toMatchObject({ replyTo: 'ada@example.com', subject: '[Support] Late order' });
  });

  it("answers 400 with the spec's message for each field and stores nothing", async () => {
    const before = (await t.database.db.select().from(contactMessages)).length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'A', email: 'nope', subject: 'Hi', message: 'short' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      name: 'Name must be at least 2 characters',
      email: 'Invalid email address',
      subject: 'Subject must be at least 3 characters',
      message: 'Message must be at least 10 characters',
    });
    expect((await t.database.db.select().from(contactMessages)).length).toBe(before);
  });

  it('answers 400, not 500, for a body that is not JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'bad_request',
      message: 'The request body is not valid JSON',
    });
  });

  it('answers 413 for a body over the size limit', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...valid, message: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('Request body is too large');
  });

  it('answers 429 when one network sends too many messages', async () => {
    const limited = await createTestApp({
      rateLimits: { contactPerIpPer10Minutes: 2 },
      mailer: { send: async () => {} },
    });
    try {
      for (let i = 0; i < 2; i++) {
        expect(
          (await limited.app.inject({ method: 'POST', url: '/api/contact', payload: valid })).statusCode,
        ).toBe(201);
      }
      const third = await limited.app.inject({ method: 'POST', url: '/api/contact', payload: valid });
      expect(third.statusCode).toBe(429);
      expect(third.json().message).toMatch(/^You have sent several messages in a short time/);
    } finally {
      await limited.close();
    }
  });
});
