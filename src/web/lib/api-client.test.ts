// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiRequest,
  errorMessage,
  fieldErrorsOf,
  isUnauthorizedError,
  statusOf,
} from './api-client';

afterEach(() => vi.unstubAllGlobals());

describe('apiRequest (docs/rules/screens-shared.md, Client behaviour)', () => {
  it('sends credentials and a JSON body', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('PATCH', '/api/auth/user', { firstName: 'A' });
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/user', {
      method: 'PATCH',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"firstName":"A"}',
      signal: undefined,
    });
  });

  it('turns a failure into "status: body"', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response('{"message":"Nope"}', { status: 409, statusText: 'Conflict' }),
    );
    await expect(apiRequest('POST', '/x')).rejects.toThrow('409: {"message":"Nope"}');
  });

  it('uses the status text when the body is empty', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(null, { status: 500, statusText: 'Internal Server Error' }),
    );
    await expect(apiRequest('GET', '/x')).rejects.toThrow('500: Internal Server Error');
  });
});

describe('reading errors', () => {
  const body = JSON.stringify({
    message: 'Too many messages',
    code: 'rate_limited',
    requestId: 'r1',
    fields: { email: 'Invalid email address' },
  });

  it('gives the server message, or the fallback', () => {
    expect(errorMessage(new ApiError(429, 'Too Many Requests', body), 'fallback')).toBe('Too many messages');
    expect(errorMessage(new ApiError(502, 'Bad Gateway', '<html>'), 'fallback')).toBe('fallback');
    expect(errorMessage(new Error('network down'), 'fallback')).toBe('fallback');
    expect(errorMessage('not an error', 'fallback')).toBe('fallback');
  });

  it('reads the message from a plain Error of the same shape', () => {
    expect(errorMessage(new Error(`429: ${body}`), 'fallback')).toBe('Too many messages');
  });

  it('gives per-field messages', () => {
    expect(fieldErrorsOf(new ApiError(400, 'Bad Request', body))).toEqual({ email: 'Invalid email address' });
    expect(fieldErrorsOf(new Error('boom'))).toBeUndefined();
  });

  it('recognises a 401', () => {
    expect(isUnauthorizedError(new ApiError(401, 'Unauthorized', ''))).toBe(true);
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(true);
    expect(isUnauthorizedError(new Error('403: Forbidden'))).toBe(false);
    expect(statusOf(new Error('no status'))).toBeUndefined();
  });
});
