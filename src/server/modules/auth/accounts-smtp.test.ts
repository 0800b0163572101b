import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createTestApp, createUser, signIn, as, type TestApp } from '../../testing/test-app';

/**
 * The password reset round trip through a real SMTP server started here
 * (docs/decisions/0019-reaching-people.md, Accounts): the link is read from the mail as received and
 * parsed, as a mail client would show it.
 */

const received: ParsedMail[] = [];
let server: SMTPServer;
let t: TestApp;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
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
      PUBLIC_URL: 'https://market.example',
    },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('password reset through SMTP', () => {
  it('mails a link that sets the new password once and ends every session', async () => {
    const user = await createUser(t, { firstName: 'Rita' });
    const cookie = await signIn(t, user.email, user.password);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: user.email },
    });
    expect(asked.statusCode).toBe(202);
    // Queued, not sent in the request.
    expect(received).toHaveLength(0);
    await t.app.runNotifications();
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.subject).toBe('Reset your password');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(user.email);
    expect(mail.text).toContain('Hi Rita,');
    const match = /https:\/\/market\.example(\/api\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(
      mail.text ?? '',
    );
    expect(match).not.toBeNull();
    expect(mail.html).toContain(match![0]);
    const token = new URL(match![0]).searchParams.get('token');

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      payload: { token, password: 'mailed new password' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await as(t, { cookie }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: user.email, password: 'mailed new password' },
        })
      ).statusCode,
    ).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      payload: { token, password: 'another password' },
    });
    expect(again.statusCode).toBe(400);
  });
});
