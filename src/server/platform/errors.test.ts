import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { isTransientDatabaseError, registerErrorHandling, RETRY_AFTER_SECONDS, toErrorBody } from './errors';

/** A database that is away for a moment answers 503 with Retry-After (docs/operations.md, Database faults). */
describe('transient database errors', () => {
  const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['the pool waiting too long', new Error('timeout exceeded when trying to connect')],
    ['a read timeout', new Error('Query read timeout')],
    ['a broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['an administrator shutdown', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    [
      'a database starting up',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['too many connections', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['a connection exception', Object.assign(new Error('connection failure'), { code: '08006' })],
    [
      'the statement timeout',
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    ],
  ])("%s answers 503, through drizzle's wrapper too", (_name, error) => {
    expect(isTransientDatabaseError(error)).toBe(true);
    const { status, body } = toErrorBody(wrapped(error), 'req-1');
    expect(status).toBe(503);
    expect(body).toMatchObject({ code: 'unavailable', requestId: 'req-1' });
  });

  it('leaves other errors alone', () => {
    expect(isTransientDatabaseError(new Error('boom'))).toBe(false);
    expect(isTransientDatabaseError(Object.assign(new Error('duplicate'), { code: '23505' }))).toBe(false);
    expect(toErrorBody(new Error('boom'), 'req-2').status).toBe(500);
  });

  it('answers with Retry-After and the usual error body', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/fails', () => {
      throw wrapped(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    });
    const response = await app.inject({ method: 'GET', url: '/fails' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(response.json()).toMatchObject({ code: 'unavailable', requestId: expect.any(String) as string });
    await app.close();
  });
});
