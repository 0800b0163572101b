// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createQueryClient, getQueryFn, urlOfQueryKey } from './query-client';

afterEach(() => vi.unstubAllGlobals());

function context(queryKey: readonly unknown[]) {
  return {
    queryKey,
    signal: new AbortController().signal,
    meta: undefined,
    client: new QueryClient(),
  } as const;
}

describe('query client (docs/rules/screens-shared.md, Client behaviour)', () => {
  it('joins the query key with slashes', () => {
    expect(urlOfQueryKey(['/api/users', 'abc'])).toBe('/api/users/abc');
  });

  it('GETs the key with credentials', async () => {
    const fetchMock = vi.fn(
      async (_url: string, _init?: RequestInit) => new Response('[1]', { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const data = await getQueryFn({ on401: 'throw' })(context(['/api/orders', 'o1', 'items']));
    expect(data).toEqual([1]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/orders/o1/items');
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ credentials: 'include' });
  });

  it('throws on a 401 by default and returns null when asked', async () => {
    vi.stubGlobal('fetch', async () => new Response('', { status: 401, statusText: 'Unauthorized' }));
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/orders']))).rejects.toThrow(
      '401: Unauthorized',
    );
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/auth/user']))).resolves.toBeNull();
  });

  it('never refetches on focus or interval, never goes stale, never retries', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Infinity,
      retry: false,
    });
    expect(mutations).toMatchObject({ retry: false });
  });
});
