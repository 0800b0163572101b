import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { isPublicRoute } from './access';
import { operationIdOf } from './openapi';

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
}
interface Document {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let document: Document;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://market.test' } });
  document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>();
});
afterAll(async () => {
  await t.close();
});

const operations = () =>
  Object.entries(document.paths).flatMap(([url, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ url, method, operation })),
  );

describe('the OpenAPI document', () => {
  it('names the server from PUBLIC_URL', () => {
    expect(document.servers).toEqual([{ url: 'https://market.test' }]);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationIdOf('GET', '/api/orders/:id/items')).toBe('getOrdersByIdItems');
  });

  it('asks for the session cookie exactly on the calls the access hook guards', () => {
    for (const { url, method, operation } of operations()) {
      if (!url.startsWith('/api/')) continue;
      const fastifyUrl = url.replace(/\{(\w+)\}/g, ':$1');
      const expected = isPublicRoute(method.toUpperCase(), fastifyUrl) ? [] : [{ session: [] }];
      expect(operation.security, `${method} ${url}`).toEqual(expected);
    }
  });

  it('describes a response on its own copy of the shared error body, leaving the others as they are', () => {
    const responses = document.paths['/api/verify-email']?.get?.responses as Record<
      string,
      { description?: string }
    >;
    expect(responses['400']?.description).toBe(
      'A missing link; an expired or used one gets the page (text/html)',
    );
    expect(responses['403']?.description).not.toBe(responses['400']?.description);
  });

  it('declares the answers of every call that are not JSON with their own content type', () => {
    type Answers = Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
    const answers = (url: string, method: string) =>
      (document.paths[url]?.[method]?.responses ?? {}) as Answers;
    const types = (url: string, method: string, status: string) =>
      Object.keys(answers(url, method)[status]?.content ?? {});
    expect(types('/api/login', 'get', '200')).toEqual(['text/html']);
    expect(types('/api/login', 'get', '302')).toEqual([]);
    expect(types('/api/login', 'post', '401')).toEqual(['application/json', 'text/html']);
    expect(types('/api/events', 'get', '200')).toEqual(['text/event-stream']);
    for (const list of ['users', 'orders', 'products', 'ledger'])
      expect(types(`/api/admin/${list}.csv`, 'get', '200'), list).toEqual(['text/csv']);
    expect(types('/api/logout', 'post', '204')).toEqual([]);
    for (const { url, method, operation } of operations()) {
      const responses = operation.responses as Answers;
      expect(responses['503']?.headers, `${method} ${url}`).toHaveProperty('retry-after');
      expect(responses['400'], `${method} ${url}`).toBeDefined();
      if (operation.security?.length === 1) expect(responses['401'], `${method} ${url}`).toBeDefined();
    }
  });

  it('passes redocly lint with the recommended rules', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const cli = path.resolve('node_modules/@redocly/cli/bin/cli.js');
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [cli, 'lint', file, '--extends', 'recommended', '--format', 'summary'],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      );
      expect(`${stdout}${stderr}`).not.toMatch(/^error/m);
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      throw new Error(`redocly lint failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
