import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accountTokens, adminActions, outbox, sessions, users } from '../../db/schema';
import {
  as,
  cookieFrom,
  createTestApp,
  createUser,
  signIn,
  signedInAs,
  type TestApp,
} from '../../testing/test-app';
import { linkIn, mailsTo, runAccountRequests, signUpVerified } from '../../testing/accounts';
import {
  CONFIRM_EMAIL_FIRST,
  LINK_EXPIRED,
  RESET_LINK_MINUTES,
  RESET_SENT,
  SIGN_UP_SENT,
  VERIFICATION_SENT,
  WRONG_CURRENT_PASSWORD,
} from '../../../domain/accounts';

/** The app's clock, moved forward by the expiry tests (docs/decisions/0019-reaching-people.md, Accounts). */
let offsetMs = 0;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(Date.now() + offsetMs) });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  offsetMs = 0;
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const post = (url: string, payload: object, cookie?: string) =>
  as(t, cookie ? { cookie } : undefined, { method: 'POST', url, payload });

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

async function sessionCount(userId: string) {
  return (await t.database.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
}

async function newestMail(to: string) {
  const [mail] = await mailsTo(t, to);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

describe('password reset', () => {
  it('goes round: request, mail, new password; every session ends, the new password signs in, the old one not', async () => {
    const user = await createUser(t);
    const first = await signIn(t, user.email, user.password);
    await signIn(t, user.email, user.password);
    expect(await sessionCount(user.id)).toBe(2);

    const asked = await post('/api/forgot-password', { email: user.email.toUpperCase() });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: RESET_SENT });
    const mail = await newestMail(user.email);
    expect(mail.kind).toBe('account_reset');
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain(`${t.config.siteUrl}/api/reset-password?token=`);
    const link = linkIn(mail, '/api/reset-password');
    const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
    // Only the token's hash is stored.
    const stored = await t.database.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id));
    expect(stored.map((row) => row.tokenHash)).not.toContain(token);

    const page = await t.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Set a new password');

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      ...form({ token, password: 'a brand new password' }),
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.body).toContain('Your password was changed.');
    expect(reset.body).toContain('href="/api/login"');
    expect(await sessionCount(user.id)).toBe(0);
    expect((await as(t, { cookie: first }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);

    expect((await post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(401);
    expect(
      (await post('/api/login', { email: user.email, password: 'a brand new password' })).statusCode,
    ).toBe(200);
  });

  it('uses a link once', async () => {
    const user = await createUser(t);
    await post('/api/forgot-password', { email: user.email });
    const token = new URL(
      linkIn(await newestMail(user.email), '/api/reset-password'),
      'http://x',
    ).searchParams.get('token');
    const once = await post('/api/reset-password', { token, password: 'first new password' });
    expect(once.statusCode).toBe(200);
    const twice = await post('/api/reset-password', { token, password: 'second new password' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe(LINK_EXPIRED);
    const page = await t.app.inject({ method: 'GET', url: `/api/reset-password?token=${token}` });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain(LINK_EXPIRED);
    expect(page.body).toContain('href="/api/forgot-password"');
    expect((await post('/api/login', { email: user.email, password: 'first new password' })).statusCode).toBe(
      200,
    );
  });

  it(`refuses a link after ${RESET_LINK_MINUTES} minutes`, async () => {
    const user = await createUser(t);
    await post('/api/forgot-password', { email: user.email });
    const link = linkIn(await newestMail(user.email), '/api/reset-password');
    const token = new URL(link, 'http://x').searchParams.get('token');
    offsetMs = (RESET_LINK_MINUTES - 1) * 60_000;
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    offsetMs = (RESET_LINK_MINUTES + 1) * 60_000;
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(400);
    const late = await post('/api/reset-password', { token, password: 'too late password' });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(LINK_EXPIRED);
    offsetMs = 0;
    expect((await post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and sends it nothing', async () => {
    const user = await createUser(t);
    const known = await post('/api/forgot-password', { email: user.email });
    const unknown = await post('/api/forgot-password', { email: 'nobody-here@example.com' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(await mailsTo(t, 'nobody-here@example.com')).toEqual([]);
    const knownForm = await t.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      ...form({ email: user.email }),
    });
    const unknownForm = await t.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      ...form({ email: 'nobody-here@example.com' }),
    });
    expect(unknownForm.statusCode).toBe(knownForm.statusCode);
    expect(unknownForm.body).toBe(knownForm.body);
  });

  it('verifies the address of an account not confirmed yet: the mail reached its owner', async () => {
    await post('/api/signup', {
      email: 'late@example.com',
      password: 'long enough',
      firstName: 'L',
      lastName: 'A',
    });
    await post('/api/forgot-password', { email: 'late@example.com' });
    const [reset] = (await mailsTo(t, 'late@example.com')).filter((mail) => mail.kind === 'account_reset');
    const token = new URL(linkIn(reset!, '/api/reset-password'), 'http://x').searchParams.get('token');
    expect((await post('/api/reset-password', { token, password: 'now verified' })).statusCode).toBe(200);
    expect(
      (await post('/api/login', { email: 'late@example.com', password: 'now verified' })).statusCode,
    ).toBe(200);
  });

  it('refuses CR/LF in the email field: no header can be added (400, nothing queued)', async () => {
    const user = await createUser(t);
    const before = (await mailsTo(t, user.email)).length;
    for (const email of [`${user.email}\r\nBcc: evil@example.com`, `${user.email}\nBcc:evil@example.com`]) {
      const response = await post('/api/forgot-password', { email });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toHaveProperty('email');
      expect((await post('/api/resend-verification', { email })).statusCode).toBe(400);
      expect(
        (await post('/api/signup', { email, password: 'long enough', firstName: 'E', lastName: 'V' }))
          .statusCode,
      ).toBe(400);
    }
    expect((await mailsTo(t, user.email)).length).toBe(before);
  });

  it('limits reset requests per network address', async () => {
    const limited = await createTestApp({ rateLimits: { accountMailPerIpPerHour: 1 } });
    try {
      const ask = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/forgot-password',
          payload: { email: 'a@example.com' },
        });
      expect((await ask()).statusCode).toBe(202);
      const second = await ask();
      expect(second.statusCode).toBe(429);
      expect(second.json().message).toMatch(/^Too many emails asked for from this network/);
    } finally {
      await limited.close();
    }
  });
});

describe('sign-up and email verification', () => {
  it('answers an existing address exactly as a new one; the owner is told and the account is unchanged', async () => {
    const owner = await createUser(t, { firstName: 'Owner' });
    const fresh = await post('/api/signup', {
      email: 'brand-new@example.com',
      password: 'long enough',
      firstName: 'B',
      lastName: 'N',
    });
    const taken = await post('/api/signup', {
      email: owner.email,
      password: 'someone else',
      firstName: 'Intruder',
      lastName: 'X',
    });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.statusCode).toBe(202);
    expect(taken.body).toBe(fresh.body);
    expect(taken.json()).toEqual({ message: SIGN_UP_SENT });
    expect(taken.headers['set-cookie']).toBeUndefined();
    const told = await newestMail(owner.email);
    expect(told.kind).toBe('account_exists');
    expect(told.subject).toBe('Someone tried to create an account with this address');
    expect(told.text).toContain(`${t.config.siteUrl}/api/login`);
    // No live link: signing up with an address mints nothing
    // (docs/decisions/0023-accounts-an-attacker-cannot-bend.md).
    expect(told.text).not.toContain('token=');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, owner.id));
    expect(row?.firstName).toBe('Owner');
    expect((await post('/api/login', { email: owner.email, password: owner.password })).statusCode).toBe(200);
    expect((await post('/api/login', { email: owner.email, password: 'someone else' })).statusCode).toBe(401);
  });

  it('keeps an unverified account out with 403 for the right password, 401 for a wrong one; the link signs in and goes to /', async () => {
    const email = 'unverified@example.com';
    await post('/api/signup', { email, password: 'long enough', firstName: 'U', lastName: 'V' });
    const right = await post('/api/login', { email, password: 'long enough' });
    expect(right.statusCode).toBe(403);
    expect(right.json().message).toBe(CONFIRM_EMAIL_FIRST);
    expect(right.headers['set-cookie']).toBeUndefined();
    expect((await post('/api/login', { email, password: 'wrong password' })).statusCode).toBe(401);
    const page = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...form({ email, password: 'long enough' }),
    });
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain(CONFIRM_EMAIL_FIRST);
    expect(page.body).toContain('Resend the link');

    const link = linkIn(await newestMail(email), '/api/verify-email');
    const verified = await t.app.inject({ method: 'GET', url: link });
    expect(verified.statusCode).toBe(302);
    expect(verified.headers.location).toBe('/');
    const me = await as(t, { cookie: cookieFrom(verified) }, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({ email, emailVerified: true });
    expect((await post('/api/login', { email, password: 'long enough' })).statusCode).toBe(200);

    const again = await t.app.inject({ method: 'GET', url: link });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain(LINK_EXPIRED);
    expect(again.body).toContain('action="/api/resend-verification"');
  });

  it('brings an account made from checkout back to checkout, and never to another site', async () => {
    const email = 'from-checkout@example.com';
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      ...form({ email, password: 'long enough', firstName: 'C', lastName: 'O', returnTo: '/checkout' }),
    });
    expect(made.statusCode).toBe(202);
    const link = linkIn(await newestMail(email), '/api/verify-email');
    const verified = await t.app.inject({ method: 'GET', url: link });
    expect(verified.statusCode).toBe(302);
    expect(verified.headers.location).toBe('/checkout');

    // A link edited to go elsewhere still lands on this site.
    const other = 'elsewhere@example.com';
    await post('/api/signup', { email: other, password: 'long enough', firstName: 'E', lastName: 'W' });
    const plain = linkIn(await newestMail(other), '/api/verify-email');
    const forged = await t.app.inject({
      method: 'GET',
      url: `${plain}&returnTo=${encodeURIComponent('//evil.example/x')}`,
    });
    expect(forged.statusCode).toBe(302);
    expect(forged.headers.location).toBe('/');

    // A returnTo outside Latin-1 lands encoded, never a 500 (docs/rules/accounts.md, Sessions and sign-in).
    const third = 'line-separator@example.com';
    await post('/api/signup', { email: third, password: 'long enough', firstName: 'L', lastName: 'S' });
    const wide = await t.app.inject({
      method: 'GET',
      url: `${linkIn(await newestMail(third), '/api/verify-email')}&returnTo=/%E2%80%A8?q=%C5%BC`,
    });
    expect(wide.statusCode).toBe(302);
    expect(wide.headers.location).toBe('/%E2%80%A8?q=%C5%BC');
  });

  it('resends a link only to an account waiting for confirmation, with the same answer for every address', async () => {
    const email = 'waiting@example.com';
    await post('/api/signup', { email, password: 'long enough', firstName: 'W', lastName: 'A' });
    const verifiedUser = await createUser(t);
    const answers = [];
    for (const address of [email, verifiedUser.email, 'nobody-at-all@example.com']) {
      const response = await post('/api/resend-verification', { email: address });
      answers.push({ status: response.statusCode, body: response.body });
    }
    expect(answers).toEqual(
      Array(3).fill({ status: 202, body: JSON.stringify({ message: VERIFICATION_SENT }) }),
    );
    expect((await mailsTo(t, email)).filter((mail) => mail.kind === 'account_verify')).toHaveLength(2);
    expect(await mailsTo(t, verifiedUser.email)).toEqual([]);
    expect(await mailsTo(t, 'nobody-at-all@example.com')).toEqual([]);
  });

  it('refuses a verification link after 24 hours', async () => {
    const email = 'slow@example.com';
    await post('/api/signup', { email, password: 'long enough', firstName: 'S', lastName: 'L' });
    const link = linkIn(await newestMail(email), '/api/verify-email');
    offsetMs = 24 * 60 * 60_000 + 60_000;
    const late = await t.app.inject({ method: 'GET', url: link });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain(LINK_EXPIRED);
  });
});

describe('change of password', () => {
  it('ends every other session, keeps this one, and mails the owner', async () => {
    const user = await createUser(t);
    const here = await signIn(t, user.email, user.password);
    const elsewhere = await signIn(t, user.email, user.password);
    const changed = await post(
      '/api/auth/password',
      { currentPassword: user.password, newPassword: 'changed password' },
      here,
    );
    expect(changed.statusCode).toBe(200);
    expect((await as(t, { cookie: here }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
    expect((await as(t, { cookie: elsewhere }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(
      401,
    );
    expect(await sessionCount(user.id)).toBe(1);
    const mail = await newestMail(user.email);
    expect(mail.kind).toBe('password_changed');
    expect(mail.subject).toBe('Your password was changed');
    expect((await post('/api/login', { email: user.email, password: 'changed password' })).statusCode).toBe(
      200,
    );
  });

  it('refuses a wrong current password with a field error and changes nothing', async () => {
    const user = await createUser(t);
    const here = await signIn(t, user.email, user.password);
    const elsewhere = await signIn(t, user.email, user.password);
    const refused = await post(
      '/api/auth/password',
      { currentPassword: 'not it', newPassword: 'changed password' },
      here,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ currentPassword: WRONG_CURRENT_PASSWORD });
    expect((await as(t, { cookie: elsewhere }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(
      200,
    );
    expect((await post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('needs a session and a new password of 8 characters', async () => {
    expect(
      (await post('/api/auth/password', { currentPassword: 'x', newPassword: 'long enough' })).statusCode,
    ).toBe(401);
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const short = await post(
      '/api/auth/password',
      { currentPassword: user.password, newPassword: 'short' },
      cookie,
    );
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toHaveProperty('newPassword');
  });

  it('signs up and verifies through the helper the other tests use', async () => {
    const cookie = await signUpVerified(t, {
      email: 'helper@example.com',
      password: 'long enough',
      firstName: 'H',
      lastName: 'E',
    });
    const me = await as(t, { cookie }, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({ emailVerified: true, localAccount: true });
  });
});

const tokenOf = (link: string) => new URL(link, 'http://x').searchParams.get('token') ?? '';

async function resetLinkFor(email: string) {
  expect((await post('/api/forgot-password', { email })).statusCode).toBe(202);
  return tokenOf(linkIn(await newestMail(email), '/api/reset-password'));
}

describe('links an attacker cannot bend (docs/decisions/0023-accounts-an-attacker-cannot-bend.md)', () => {
  it('ends every older reset link when a newer one is mailed or used', async () => {
    const user = await createUser(t);
    const first = await resetLinkFor(user.email);
    const second = await resetLinkFor(user.email);
    expect(first).not.toBe(second);
    // A newer link ends the older one at once.
    const older = await post('/api/reset-password', { token: first, password: 'older link password' });
    expect(older.statusCode).toBe(400);
    expect(older.json().message).toBe(LINK_EXPIRED);
    expect(
      (await post('/api/reset-password', { token: second, password: 'newer link password' })).statusCode,
    ).toBe(200);
    expect(
      (await post('/api/login', { email: user.email, password: 'newer link password' })).statusCode,
    ).toBe(200);
  });

  it('ends a reset link mailed before a change of password on the profile', async () => {
    const user = await createUser(t);
    const token = await resetLinkFor(user.email);
    const cookie = await signIn(t, user.email, user.password);
    const changed = await post(
      '/api/auth/password',
      { currentPassword: user.password, newPassword: 'changed on the profile' },
      cookie,
    );
    expect(changed.statusCode).toBe(200);
    const late = await post('/api/reset-password', { token, password: 'taken over password' });
    expect(late.statusCode).toBe(400);
    expect(
      (await post('/api/login', { email: user.email, password: 'changed on the profile' })).statusCode,
    ).toBe(200);
  });

  it('ends the verification links still out once one of them confirmed the address', async () => {
    const email = 'two-verify-links@example.com';
    await post('/api/signup', { email, password: 'long enough', firstName: 'T', lastName: 'V' });
    const first = linkIn(await newestMail(email), '/api/verify-email');
    await post('/api/resend-verification', { email });
    const second = linkIn(await newestMail(email), '/api/verify-email');
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: second })).statusCode).toBe(302);
  });

  it('mints no link when someone signs up with an address that has an account', async () => {
    const user = await createUser(t);
    const answer = await post('/api/signup', {
      email: user.email,
      password: 'anything long',
      firstName: 'Mallory',
      lastName: 'M',
    });
    expect(answer.statusCode).toBe(202);
    const [told] = await mailsTo(t, user.email);
    expect(told?.kind).toBe('account_exists');
    expect(told?.text).not.toContain('token=');
    expect(await t.database.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id))).toEqual(
      [],
    );
  });

  it('logs a reset in the activity log and mails the owner that the password changed', async () => {
    const user = await createUser(t);
    const token = await resetLinkFor(user.email);
    expect((await post('/api/reset-password', { token, password: 'a reset password' })).statusCode).toBe(200);
    const logged = await t.database.db.select().from(adminActions).where(eq(adminActions.targetId, user.id));
    expect(logged).toEqual([
      expect.objectContaining({ actorId: user.id, action: 'user.password_reset', targetLabel: user.email }),
    ]);
    const told = await newestMail(user.email);
    expect(told.kind).toBe('password_changed');
    expect(told.subject).toBe('Your password was changed');
    expect(told.text).toContain(`${t.config.siteUrl}/api/forgot-password`);
    expect(told.text).not.toContain('token=');
  });

  it("never shows a live link on the admin's Mail tab; the mail sent keeps it", async () => {
    const user = await createUser(t);
    const token = await resetLinkFor(user.email);
    const admin = await signedInAs(t, 'admin');
    const listed = await as(t, admin, { method: 'GET', url: '/api/admin/mail?page=1' });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(token);
    const items = listed.json<{ items: { to: string; kind: string; text: string }[] }>().items;
    const shown = items.find((item) => item.to === user.email && item.kind === 'account_reset');
    expect(shown?.text).toContain(`${t.config.siteUrl}/api/reset-password?token=[hidden]`);
    // What the mailer is handed still holds the link.
    expect((await newestMail(user.email)).text).toContain(`/api/reset-password?token=${token}`);
    // The link still works.
    expect((await post('/api/reset-password', { token, password: 'still works fine' })).statusCode).toBe(200);
  });
});

describe('the same work for every address (docs/decisions/0023-accounts-an-attacker-cannot-bend.md)', () => {
  /** What a request wrote: links, mail and account requests (kind), counted. */
  async function writtenBy(send: () => Promise<{ statusCode: number; body: string }>) {
    const count = async () => ({
      links: (await t.database.db.select().from(accountTokens)).length,
      mail: (await t.database.db.select().from(outbox).where(eq(outbox.channel, 'mail'))).length,
      requests: (
        await t.database.db.select().from(outbox).where(eq(outbox.channel, 'account')).orderBy(outbox.id)
      ).map((row) => row.kind),
    });
    await runAccountRequests(t);
    const before = await count();
    const answer = await send();
    const after = await count();
    return {
      answer: { status: answer.statusCode, body: answer.body },
      links: after.links - before.links,
      mail: after.mail - before.mail,
      requests: after.requests.slice(before.requests.length),
    };
  }

  it('forgot password: the request writes one account request and nothing else, for any address', async () => {
    const user = await createUser(t);
    const known = await writtenBy(() => post('/api/forgot-password', { email: user.email }));
    const unknown = await writtenBy(() =>
      post('/api/forgot-password', { email: 'no-account-1@example.com' }),
    );
    expect(known).toEqual(unknown);
    expect(known).toMatchObject({ links: 0, mail: 0, requests: ['reset'] });
    // After the answer, the owner gets the link and the unknown address nothing.
    expect((await mailsTo(t, user.email)).map((mail) => mail.kind)).toEqual(['account_reset']);
    expect(await mailsTo(t, 'no-account-1@example.com')).toEqual([]);
  });

  it('resend the link: the same for an account waiting, a verified one and no account', async () => {
    const waiting = 'waiting-same-work@example.com';
    await post('/api/signup', { email: waiting, password: 'long enough', firstName: 'W', lastName: 'S' });
    const verified = await createUser(t);
    const results = [];
    for (const email of [waiting, verified.email, 'no-account-2@example.com'])
      results.push(await writtenBy(() => post('/api/resend-verification', { email })));
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(results[0]).toMatchObject({ links: 0, mail: 0, requests: ['verify'] });
    expect((await mailsTo(t, waiting)).filter((mail) => mail.kind === 'account_verify')).toHaveLength(2);
  });

  it('sign-up: one statement makes the account or notes the owner; links and mail come after the answer', async () => {
    const owner = await createUser(t);
    const existing = await writtenBy(() =>
      post('/api/signup', { email: owner.email, password: 'long enough', firstName: 'X', lastName: 'Y' }),
    );
    const fresh = await writtenBy(() =>
      post('/api/signup', {
        email: 'brand-new-same-work@example.com',
        password: 'long enough',
        firstName: 'X',
        lastName: 'Y',
      }),
    );
    expect(existing).toEqual(fresh);
    expect(fresh).toMatchObject({ links: 0, mail: 0, requests: ['sign_up'] });
    expect((await mailsTo(t, owner.email)).map((mail) => mail.kind)).toEqual(['account_exists']);
    expect((await mailsTo(t, 'brand-new-same-work@example.com')).map((mail) => mail.kind)).toEqual([
      'account_verify',
    ]);
  });
});
