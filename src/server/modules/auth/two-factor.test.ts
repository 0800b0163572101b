import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { LightMyRequestResponse } from 'fastify';
import { twoFactorRecoveryCodes, twoFactorSecrets, users } from '../../db/schema';
import {
  as,
  cookieFrom,
  createTestApp,
  signedInAs,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import { mailsTo } from '../../testing/accounts';
import {
  SIGN_IN_CODE_EXPIRED,
  TWO_FACTOR_NEEDED,
  TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
  WRONG_PASSWORD_OR_CODE,
  WRONG_TWO_FACTOR_CODE,
} from '../../../domain/two-factor';
import type { AdminActivity, Page } from '../../../domain/admin';

/**
 * Two-factor sign-in (docs/decisions/0024-two-factor-sign-in.md). The app's clock is moved by the
 * tests, and codes are computed for it with otpauth: nothing waits on the wall clock.
 */
const STEP_MS = 30_000;
/** The start of a time step, so a test knows which codes are of the same step. */
let clock = Math.floor(Date.now() / STEP_MS) * STEP_MS;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const codeAt = (secret: string, ms = clock) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ms });

function cookieNamed(response: LightMyRequestResponse, name: string): string | undefined {
  const header = response.headers['set-cookie'];
  const list = Array.isArray(header) ? header : header ? [header] : [];
  return list.find((c) => c.startsWith(`${name}=`))?.split(';')[0];
}

const post = (app: TestApp, user: { cookie: string } | undefined, url: string, payload: object) =>
  as(app, user, { method: 'POST', url, payload });

/** Sets it up and turns it on: the secret and the recovery codes. */
async function turnOn(app: TestApp, user: TestUser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await post(app, user, '/api/auth/two-factor/setup', {});
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enabled = await post(app, user, '/api/auth/two-factor/enable', { code: codeAt(secret) });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { secret, recoveryCodes: enabled.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** The password step: answers the pending sign-in's cookie. */
async function passwordStep(app: TestApp, user: { email: string; password: string }): Promise<string> {
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: user.email, password: user.password },
  });
  expect(response.statusCode, response.body).toBe(202);
  expect(response.json()).toEqual({ twoFactorRequired: true, message: TWO_FACTOR_NEEDED });
  expect(cookieNamed(response, 'sid')).toBeUndefined();
  const pending = cookieNamed(response, 'sign_in_pending');
  if (!pending) throw new Error('no pending sign-in cookie');
  return pending;
}

const codeStep = (app: TestApp, pending: string, code: string) =>
  post(app, { cookie: pending }, '/api/login/two-factor', { code });

async function activityOf(app: TestApp, userId: string): Promise<AdminActivity[]> {
  const admin = await signedInAs(app, 'admin');
  const response = await as(app, admin, { method: 'GET', url: '/api/admin/activity' });
  expect(response.statusCode).toBe(200);
  return response.json<Page<AdminActivity>>().items.filter((item) => item.targetId === userId);
}

describe('setup from the profile', () => {
  it('makes a secret shown once as text and QR code, kept encrypted; a wrong code is refused, a right one turns it on', async () => {
    const user = await signedInAs(t, 'buyer');
    const before = await as(t, user, { method: 'GET', url: '/api/auth/two-factor' });
    expect(before.json()).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
      setupRequired: false,
    });

    const setup = await post(t, user, '/api/auth/two-factor/setup', {});
    expect(setup.statusCode).toBe(200);
    const { secret, qrCode } = setup.json<{ secret: string; qrCode: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(',')[1] ?? '', 'base64').toString()).toContain('<svg');
    const [stored] = await t.database.db
      .select()
      .from(twoFactorSecrets)
      .where(eq(twoFactorSecrets.userId, user.id));
    expect(stored?.secretEncrypted).toBeDefined();
    expect(stored?.secretEncrypted).not.toContain(secret);

    const wrongCode = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await post(t, user, '/api/auth/two-factor/enable', { code: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      message: WRONG_TWO_FACTOR_CODE,
      fields: { code: WRONG_TWO_FACTOR_CODE },
    });
    expect((await as(t, user, { method: 'GET', url: '/api/auth/two-factor' })).json()).toMatchObject({
      enabled: false,
    });

    // Apps show the code in two groups: the space is no matter.
    const code = codeAt(secret);
    const enabled = await post(t, user, '/api/auth/two-factor/enable', {
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const { recoveryCodes } = enabled.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const recovery of recoveryCodes) expect(recovery).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const hashes = await t.database.db
      .select()
      .from(twoFactorRecoveryCodes)
      .where(eq(twoFactorRecoveryCodes.userId, user.id));
    expect(hashes).toHaveLength(10);
    for (const row of hashes)
      expect(recoveryCodes.map((c) => c.replace('-', ''))).not.toContain(row.codeHash);

    const status = (await as(t, user, { method: 'GET', url: '/api/auth/two-factor' })).json();
    expect(status).toEqual({
      enabled: true,
      enabledAt: new Date(clock).toISOString(),
      recoveryCodesLeft: 10,
      setupRequired: false,
    });
    expect(JSON.stringify(status)).not.toContain(secret);
    // Once on, no new secret is handed out.
    expect((await post(t, user, '/api/auth/two-factor/setup', {})).statusCode).toBe(409);

    const [mail] = await mailsTo(t, user.email);
    expect(mail).toMatchObject({ kind: 'two_factor_enabled', subject: 'Two-factor sign-in is on' });
    const activity = await activityOf(t, user.id);
    expect(activity.map((item) => [item.action, item.actorId])).toEqual([['two_factor.enabled', user.id]]);
  });
});

describe('sign-in with two factors', () => {
  it('asks for a code after the password; the code signs in, and each time step is taken once', async () => {
    const user = await signedInAs(t, 'buyer');
    const { secret } = await turnOn(t, user);
    clock += STEP_MS;

    const pending = await passwordStep(t, user);
    // The pending cookie is no session.
    expect((await as(t, { cookie: pending }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);

    const code = codeAt(secret);
    const signedIn = await codeStep(t, pending, code);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ id: user.id, email: user.email });
    const me = await as(t, { cookie: cookieFrom(signedIn) }, { method: 'GET', url: '/api/auth/user' });
    expect(me.statusCode).toBe(200);

    // The same code again, in its window: refused.
    const again = await codeStep(t, await passwordStep(t, user), code);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ message: WRONG_TWO_FACTOR_CODE });
    // The previous step's code is within the window but older than one taken: refused too.
    expect((await codeStep(t, await passwordStep(t, user), codeAt(secret, clock - STEP_MS))).statusCode).toBe(
      401,
    );
    // A code of the next step (a phone a little ahead) is taken.
    expect((await codeStep(t, await passwordStep(t, user), codeAt(secret, clock + STEP_MS))).statusCode).toBe(
      200,
    );
    // Two steps ahead is outside the window.
    clock += STEP_MS;
    expect(
      (await codeStep(t, await passwordStep(t, user), codeAt(secret, clock + 2 * STEP_MS))).statusCode,
    ).toBe(401);
  });

  it('takes each recovery code once, records it in the activity log and mails the user', async () => {
    const user = await signedInAs(t, 'buyer');
    const { recoveryCodes } = await turnOn(t, user);
    const [first, second] = recoveryCodes;
    if (!first || !second) throw new Error('no recovery codes');

    clock += STEP_MS;
    const used = await codeStep(t, await passwordStep(t, user), first.toUpperCase());
    expect(used.statusCode, used.body).toBe(200);
    const reused = await codeStep(t, await passwordStep(t, user), first);
    expect(reused.statusCode).toBe(401);
    // Without its dash too.
    clock += STEP_MS;
    expect((await codeStep(t, await passwordStep(t, user), second.replace('-', ''))).statusCode).toBe(200);

    const status = (await as(t, user, { method: 'GET', url: '/api/auth/two-factor' })).json();
    expect(status).toMatchObject({ recoveryCodesLeft: 8 });
    const mails = await mailsTo(t, user.email);
    expect(
      mails.filter((mail) => mail.kind === 'two_factor_recovery_code_used').map((mail) => mail.text),
    ).toEqual([
      expect.stringContaining('8 recovery codes are left'),
      expect.stringContaining('9 recovery codes are left'),
    ]);
    const activity = await activityOf(t, user.id);
    expect(activity.map((item) => item.action)).toEqual([
      'two_factor.recovery_code_used',
      'two_factor.recovery_code_used',
      'two_factor.enabled',
    ]);
    expect(activity[0]?.after).toEqual({ recoveryCodesLeft: '8' });
  });

  it('refuses codes past 5 wrong ones for 15 minutes, even the right one', async () => {
    const user = await signedInAs(t, 'buyer');
    const { secret } = await turnOn(t, user);
    clock += STEP_MS;
    const pending = await passwordStep(t, user);
    for (let i = 0; i < 5; i++) {
      const wrong = await codeStep(t, pending, i % 2 ? '000000' : 'aaaaa-bbbbb');
      expect(wrong.statusCode).toBe(401);
    }
    const limited = await codeStep(t, pending, codeAt(secret));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    // The profile's code checks count on the same budget.
    expect((await post(t, user, '/api/auth/two-factor/disable', { code: codeAt(secret) })).statusCode).toBe(
      429,
    );

    clock += 15 * 60_000;
    const later = await codeStep(t, await passwordStep(t, user), codeAt(secret));
    expect(later.statusCode, later.body).toBe(200);
  });

  it('forgets a password step after 5 minutes', async () => {
    const user = await signedInAs(t, 'buyer');
    const { secret } = await turnOn(t, user);
    const pending = await passwordStep(t, user);
    clock += 5 * 60_000 + STEP_MS;
    const late = await codeStep(t, pending, codeAt(secret));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ message: SIGN_IN_CODE_EXPIRED });
    // Without a password step there is nothing to finish.
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/login/two-factor',
      payload: { code: '123456' },
    });
    expect(none.statusCode).toBe(401);
  });

  it('works with the sign-in page: the form goes to the code page, then where the person was going', async () => {
    const user = await signedInAs(t, 'buyer');
    const { secret } = await turnOn(t, user);
    clock += STEP_MS;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const password = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: form,
      payload: new URLSearchParams({
        email: user.email,
        password: user.password,
        returnTo: '/profile',
      }).toString(),
    });
    expect(password.statusCode).toBe(303);
    expect(password.headers.location).toBe('/api/login/two-factor');
    expect(cookieNamed(password, 'sid')).toBeUndefined();
    const pending = cookieNamed(password, 'sign_in_pending') ?? '';

    const page = await as(t, { cookie: pending }, { method: 'GET', url: '/api/login/two-factor' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Two-factor sign-in');
    expect(page.body).toContain('autocomplete="one-time-code"');
    // Without a password step the code page sends back to the sign-in page.
    const alone = await t.app.inject({ method: 'GET', url: '/api/login/two-factor' });
    expect(alone.statusCode).toBe(302);
    expect(alone.headers.location).toBe('/api/login');

    const submit = (code: string) =>
      as(
        t,
        { cookie: pending },
        {
          method: 'POST',
          url: '/api/login/two-factor',
          headers: form,
          payload: new URLSearchParams({ code }).toString(),
        },
      );
    const wrong = await submit('000000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain(WRONG_TWO_FACTOR_CODE);
    const right = await submit(codeAt(secret));
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/profile');
    expect(cookieFrom(right)).toMatch(/^sid=/);
  });
});

describe('removal', () => {
  it('needs the password or a current code; then sign-in asks for the password only', async () => {
    const user = await signedInAs(t, 'buyer');
    const { secret } = await turnOn(t, user);
    clock += STEP_MS;
    const wrong = await post(t, user, '/api/auth/two-factor/disable', { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: WRONG_PASSWORD_OR_CODE });
    expect((await post(t, user, '/api/auth/two-factor/disable', {})).statusCode).toBe(400);

    const removed = await post(t, user, '/api/auth/two-factor/disable', { password: user.password });
    expect(removed.statusCode).toBe(204);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.twoFactorEnabledAt).toBeNull();
    expect(
      await t.database.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id)),
    ).toEqual([]);
    expect(
      await t.database.db
        .select()
        .from(twoFactorRecoveryCodes)
        .where(eq(twoFactorRecoveryCodes.userId, user.id)),
    ).toEqual([]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: user.password },
    });
    expect(signIn.statusCode).toBe(200);
    const [mail] = await mailsTo(t, user.email);
    expect(mail).toMatchObject({ kind: 'two_factor_disabled', subject: 'Two-factor sign-in was turned off' });
    expect((await activityOf(t, user.id)).map((item) => item.action)).toEqual([
      'two_factor.disabled',
      'two_factor.enabled',
    ]);

    // Turned on again, and off with a current code.
    const again = await turnOn(t, user);
    clock += STEP_MS;
    expect(again.secret).not.toBe(secret);
    const byCode = await post(t, user, '/api/auth/two-factor/disable', { code: codeAt(again.secret) });
    expect(byCode.statusCode).toBe(204);
  });
});

describe('ADMIN_TWO_FACTOR=required', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ now: () => new Date(clock), env: { ADMIN_TWO_FACTOR: 'required' } });
  });
  afterAll(async () => {
    await strict.close();
  });
  afterEach(() => {
    expect(strict.statuses.filter((s) => s >= 500)).toEqual([]);
  });

  it('sends an admin without it to the setup: admin calls answer 403 two_factor_setup_required until it is on', async () => {
    const admin = await signedInAs(strict, 'admin');
    const refused = await as(strict, admin, { method: 'GET', url: '/api/admin/users' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'two_factor_setup_required',
      message: TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
    });
    const me = await as(strict, admin, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({ twoFactorSetupRequired: true, role: 'buyer', roles: ['buyer'] });
    expect((await as(strict, admin, { method: 'GET', url: '/api/auth/two-factor' })).json()).toMatchObject({
      enabled: false,
      setupRequired: true,
    });
    // No admin power through the calls every user has either: all orders, for instance.
    const orders = await as(strict, admin, { method: 'GET', url: '/api/orders' });
    expect(orders.statusCode).toBe(200);

    await turnOn(strict, admin);
    expect((await as(strict, admin, { method: 'GET', url: '/api/admin/users' })).statusCode).toBe(200);
    const after = (await as(strict, admin, { method: 'GET', url: '/api/auth/user' })).json<
      Record<string, unknown>
    >();
    expect(after).toMatchObject({ role: 'admin', roles: ['buyer', 'admin'] });
    expect(after.twoFactorSetupRequired).toBeUndefined();
  });

  it('leaves other users alone', async () => {
    const seller = await signedInAs(strict, 'seller');
    const me = (await as(strict, seller, { method: 'GET', url: '/api/auth/user' })).json<
      Record<string, unknown>
    >();
    expect(me.twoFactorSetupRequired).toBeUndefined();
    expect((await as(strict, seller, { method: 'GET', url: '/api/seller/products' })).statusCode).toBe(200);
  });

  it('is optional by default outside production: an admin works without it', async () => {
    const admin = await signedInAs(t, 'admin');
    expect((await as(t, admin, { method: 'GET', url: '/api/admin/users' })).statusCode).toBe(200);
  });
});
