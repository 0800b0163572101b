import type { QueryClient } from '@tanstack/react-query';

/** Admin data is polled every 60 s (docs/rules/screens-work.md, Admin screens; docs/rules/screens-shared.md, Constants). */
export const ADMIN_POLL_MS = 60_000;

/** Every admin query's key starts with its URL under /api/admin (or /api/categories). */
export const ADMIN_KEY_PREFIXES = ['/api/admin', '/api/categories'] as const;

/**
 * After an admin change, every admin list, the summary and the activity are read again. A read still
 * on its way may have been answered before the change (a list's first read of new filters is not
 * cancelled by an invalidation, as it has no data yet): such reads are cancelled first, so every list
 * is read after the change. Once in CI a deleted category stayed listed that way.
 */
export async function invalidateAdminData(queryClient: QueryClient): Promise<void> {
  const filters = {
    predicate: (query: { queryKey: readonly unknown[] }) => {
      const [first] = query.queryKey;
      return typeof first === 'string' && ADMIN_KEY_PREFIXES.some((prefix) => first.startsWith(prefix));
    },
  };
  await queryClient.cancelQueries(filters);
  await queryClient.invalidateQueries(filters);
}

/**
 * After a moderation (a role taken or given, a suspension, a product hidden or shown): the admin
 * data, and the catalog's products, which a hidden product or a seller who may not sell leaves.
 */
export function invalidateModeration(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    invalidateAdminData(queryClient),
    queryClient.invalidateQueries({
      predicate: (query) =>
        typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith('/api/products'),
    }),
  ]).then(() => undefined);
}

/** `?search=lamp&page=2`: the filters that are set, in a stable order. */
export function queryStringOf(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
