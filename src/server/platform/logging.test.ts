import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp } from '../testing/test-app';

/** The log keeps paths and database error codes, never what users typed (docs/rules/running.md, Bad input and failure). */
let t: TestApp;
const lines: string[] = [];
const quietLines: string[] = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  t = await createTestApp({
    logger: { level: 'debug', stream },
    extend: (app) =>
      app.get('/api/__broken-query', async () =>
        t.database.db.execute(sql`select * from no_such_table where name = ${'secret-param-value'}`),
      ),
  });
});
afterAll(async () => {
  await t.close();
});

describe('the log', () => {
  it('writes no line for a request that succeeded at the default level (info)', async () => {
    const quiet = await createTestApp({
      logger: {
        level: 'info',
        stream: new Writable({
          write: (chunk: Buffer, _e, done) => {
            quietLines.push(chunk.toString());
            done();
          },
        }),
      },
    });
    try {
      const response = await quiet.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      expect(quietLines.join('')).not.toContain('/api/health');
    } finally {
      await quiet.close();
    }
  });

  it('names the path of a request but not its query string', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/products?search=private-search-term' });
    expect(response.statusCode).toBe(200);
    const log = lines.join('');
    expect(log).toContain('/api/products');
    expect(log).not.toContain('private-search-term');
  });

  it('records a failed query by its SQLSTATE, without its text or parameters', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const response = await as(t, buyer, { method: 'GET', url: '/api/__broken-query' });
    expect(response.statusCode).toBe(500);
    t.statuses.length = 0;
    const log = lines.join('');
    expect(log).toContain('"sqlState":"42P01"');
    expect(log).not.toContain('secret-param-value');
    expect(log).not.toContain('no_such_table where');
  });
});
