import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health', () => {
  it('answers 200 while the database is reachable', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
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
