import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signedInAs, type TestApp } from '../../testing/test-app';

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

describe('GET /api/auth/user', () => {
  it('is 401 for a visitor', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: 'Unauthorized', code: 'unauthorized' });
  });

  it('returns the signed-in user with current and granted roles', async () => {
    const seller = await signedInAs(t, 'seller');
    const response = await as(t, seller, { method: 'GET', url: '/api/auth/user' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: seller.id,
      email: seller.email,
      role: 'seller',
      roles: ['buyer', 'seller'],
    });
  });
});

describe('PATCH /api/auth/user', () => {
  it('changes first and last name', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'PATCH',
      url: '/api/auth/user',
      payload: { firstName: '  Grace ', lastName: 'Hopper' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
  });

  it('refuses anything but names (no role, email or verification through this call)', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'PATCH',
      url: '/api/auth/user',
      payload: { firstName: 'A', lastName: 'B', role: 'admin', email: 'x@example.com' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('role,email');
    const me = await as(t, buyer, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({ role: 'buyer', email: buyer.email, firstName: 'Test' });
  });

  it('answers 400 per field for blank names', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'PATCH',
      url: '/api/auth/user',
      payload: { firstName: ' ', lastName: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ firstName: 'Required', lastName: 'Required' });
  });

  it('is 401 for a visitor', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/user',
      payload: { firstName: 'A', lastName: 'B' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('PATCH /api/users/{id}/role (the header switcher)', () => {
  it('switches to a granted role', async () => {
    const seller = await signedInAs(t, 'seller');
    const response = await as(t, seller, {
      method: 'PATCH',
      url: `/api/users/${seller.id}/role`,
      payload: { role: 'buyer' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 'buyer', roles: ['buyer', 'seller'] });
  });

  it('refuses a role that was not granted', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/users/${buyer.id}/role`,
      payload: { role: 'admin' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(
      'You do not have the admin role. Contact an administrator if you need it.',
    );
    const me = await as(t, buyer, { method: 'GET', url: '/api/auth/user' });
    expect(me.json().role).toBe('buyer');
  });

  it("refuses to change another user's role, even for an admin", async () => {
    const buyer = await signedInAs(t, 'buyer');
    const admin = await signedInAs(t, 'admin');
    const response = await as(t, admin, {
      method: 'PATCH',
      url: `/api/users/${buyer.id}/role`,
      payload: { role: 'buyer' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers 400 for an unknown role and a malformed id', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const badRole = await as(t, buyer, {
      method: 'PATCH',
      url: `/api/users/${buyer.id}/role`,
      payload: { role: 'king' },
    });
    expect(badRole.statusCode).toBe(400);
    expect(Object.keys(badRole.json().fields)).toEqual(['role']);
    const badId = await as(t, buyer, {
      method: 'PATCH',
      url: '/api/users/123/role',
      payload: { role: 'buyer' },
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().fields).toEqual({ id: 'Must be a valid id' });
  });
});

describe('POST /api/auth/user/roles (become a seller or driver)', () => {
  it('grants the role and makes it current', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/auth/user/roles',
      payload: { role: 'seller' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 'seller', roles: ['buyer', 'seller'] });
    const again = await as(t, buyer, {
      method: 'POST',
      url: '/api/auth/user/roles',
      payload: { role: 'seller' },
    });
    expect(again.json().roles).toEqual(['buyer', 'seller']);
  });

  it('never grants admin', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/auth/user/roles',
      payload: { role: 'admin' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('leaves a new driver unverified', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, {
      method: 'POST',
      url: '/api/auth/user/roles',
      payload: { role: 'driver' },
    });
    expect(response.json()).toMatchObject({ role: 'driver', isVerified: false });
  });
});

describe('GET /api/users/{id}', () => {
  it('shows a public profile without the email, to visitors too', async () => {
    const seller = await signedInAs(t, 'seller', { firstName: 'Sal', lastName: 'Vendor' });
    const response = await t.app.inject({ method: 'GET', url: `/api/users/${seller.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: seller.id,
      firstName: 'Sal',
      lastName: 'Vendor',
      role: 'seller',
    });
    expect(response.body).not.toContain(seller.email);
    expect(response.json()).not.toHaveProperty('email');
  });

  it('is 404 for an unknown user', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/00000000-0000-4000-8000-000000000000',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('User not found');
  });
});

describe('PATCH /api/admin/users/{id}/role', () => {
  it('lets an admin grant and set another user’s role', async () => {
    const admin = await signedInAs(t, 'admin');
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, admin, {
      method: 'PATCH',
      url: `/api/admin/users/${buyer.id}/role`,
      payload: { role: 'driver' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 'driver', roles: ['buyer', 'driver'] });
  });

  it('refuses an admin’s own row and any non-admin', async () => {
    const admin = await signedInAs(t, 'admin');
    const own = await as(t, admin, {
      method: 'PATCH',
      url: `/api/admin/users/${admin.id}/role`,
      payload: { role: 'buyer' },
    });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('Admins cannot change their own role');
    const seller = await signedInAs(t, 'seller');
    const notAdmin = await as(t, seller, {
      method: 'PATCH',
      url: `/api/admin/users/${admin.id}/role`,
      payload: { role: 'buyer' },
    });
    expect(notAdmin.statusCode).toBe(403);
  });
});
