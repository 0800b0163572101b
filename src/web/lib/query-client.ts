import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiFetch, throwIfResNotOk, readJson } from './api-client';

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The URL a query key stands for: its string parts joined by '/'
 * (docs/rules/screens-shared.md, Client behaviour).
 */
export function urlOfQueryKey(queryKey: readonly unknown[]): string {
  return queryKey
    .filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
    .join('/');
}

/** GET of the query key. A 401 throws unless `on401` is 'returnNull' (used for the current user). */
export function getQueryFn(options: { on401: UnauthorizedBehavior }): QueryFunction<unknown> {
  return async ({ queryKey, signal }) => {
    const res = await apiFetch(urlOfQueryKey(queryKey), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return readJson(res);
  };
}

/**
 * Reads are never refetched on focus or on an interval unless stated, never stale and never
 * retried; writes are never retried (docs/rules/screens-shared.md, Client behaviour).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
