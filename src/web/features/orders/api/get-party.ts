import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicUserSchema, type PublicUser } from '@domain/users';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/users/{id}: a party's public profile (never the email;
 * docs/rules/accounts.md, Roles and permissions).
 */
export async function fetchPublicUser(userId: string, signal?: AbortSignal): Promise<PublicUser> {
  return publicUserSchema.parse(await apiGet(`/api/users/${encodeURIComponent(userId)}`, signal));
}

export function publicUserQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['/api/users', userId] as const,
    queryFn: ({ signal }) => fetchPublicUser(userId, signal),
  });
}

export function usePublicUser(userId: string | null) {
  return useQuery({ ...publicUserQueryOptions(userId ?? ''), enabled: userId !== null });
}
