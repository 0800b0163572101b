import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows-of';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health', () => {
  it('answers 200 from the process alone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /api/ready', () => {
  it('answers 200 when the database answers and every committed migration is applied', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 while the newest migration is not applied, and 200 again once it is', async () => {
    const [newest] = await rowsOf<{ id: number; hash: string; created_at: string }>(
      t.database.db,
      sql`select id, hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    if (!newest) throw new Error('the test database has no migrations');
    await t.database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest.id}`);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ message: 'The database migrations are not all applied yet' });
      // Liveness does not depend on it: the process is alive, it just should not take traffic.
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await t.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest.id}, ${newest.hash}, ${newest.created_at})`,
      );
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('answers 503 when the database cannot be reached, without a 500', async () => {
    const unreachable = await createTestApp();
    try {
      // The pool of a closed database refuses every query: what an instance sees when it loses its database.
      await unreachable.database.close();
      const ready = await unreachable.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ message: 'The database is unreachable' });
      expect((await unreachable.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await unreachable.app.close();
    }
  });

  it('answers 503 within 2 s when the database does not answer at all', async () => {
    const silent = await createTestApp();
    try {
      // A database that went silent (a network cut): its queries neither answer nor fail.
      silent.database.ping = () => new Promise(() => {});
      const started = Date.now();
      const ready = await silent.app.inject({ method: 'GET', url: '/api/ready' });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBeDefined();
      expect(ready.json()).toMatchObject({ message: 'The database is unreachable', code: 'unavailable' });
    } finally {
      await silent.close();
    }
  });
});

describe('GET /api/openapi.json', () => {
  it('documents every API route with its schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const [method, url] of [
      ['get', '/api/health'],
      ['get', '/api/auth/user'],
      ['patch', '/api/auth/user'],
      ['post', '/api/login'],
      ['post', '/api/signup'],
      ['post', '/api/forgot-password'],
      ['post', '/api/reset-password'],
      ['get', '/api/verify-email'],
      ['post', '/api/resend-verification'],
      ['post', '/api/auth/password'],
      ['post', '/api/logout'],
      ['patch', '/api/users/{id}/role'],
      ['get', '/api/users/{id}'],
      ['post', '/api/contact'],
      ['get', '/api/categories'],
      ['get', '/api/products'],
    ] as const) {
      expect(doc.paths[url]?.[method], `${method} ${url}`).toBeDefined();
    }
    const contact = doc.paths['/api/contact']?.post as {
      requestBody?: { content?: Record<string, { schema?: { required?: string[] } }> };
    };
    expect(contact.requestBody?.content?.['application/json']?.schema?.required).toEqual(
      expect.arrayContaining(['name', 'email', 'subject', 'message']),
    );
  });
});
