import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser, SessionUser } from '@domain/users';
import { getQueryFn } from './query-client';

export const CURRENT_USER_KEY = ['/api/auth/user'] as const;

const readCurrentUser = getQueryFn({ on401: 'returnNull' });

/** GET /api/auth/user: the signed-in user, or null when signed out (a 401 is not an error here). */
export const currentUserQueryOptions = queryOptions({
  queryKey: CURRENT_USER_KEY,
  queryFn: async (context): Promise<SessionUser | null> => {
    // The schemas load with the first request, beside it, not with the page: a page the server
    // rendered has the user already (docs/decisions/0014-first-load.md).
    const [{ sessionUserSchema }, data] = await Promise.all([
      import('@domain/users'),
      readCurrentUser(context),
    ]);
    return data === null ? null : sessionUserSchema.parse(data);
  },
  retry: false,
});

export interface AuthState {
  /** With what only the current-user call says: the live cursor, an admin's two-factor setup to do. */
  user: SessionUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

/**
 * Signed in when the current-user call returns data without error, with no retry
 * (docs/rules/accounts.md, Sessions and sign-in).
 */
export function useAuth(): AuthState {
  const { data, isLoading, isError } = useQuery(currentUserQueryOptions);
  const user = !isError && data ? data : null;
  return { user, isLoading, isAuthenticated: user !== null };
}

/**
 * The user on a signed-in page. The router only mounts those pages once the user is known,
 * so a missing user here is a programming error, not a state to render.
 */
export function useSignedInUser(): CurrentUser {
  const { user } = useAuth();
  if (!user) throw new Error('useSignedInUser is used outside the signed-in routes');
  return user;
}
