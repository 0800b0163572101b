import { useMutation, useQueryClient } from '@tanstack/react-query';
import { moderatedUserSchema, type ModeratedUser } from '@domain/users';
import { apiSend } from '../../../lib/api-client';
import { invalidateModeration } from './admin-data';

/**
 * POST /api/admin/users/{id}/suspend (`suspended` true) or /restore: a suspended user is signed out
 * everywhere and their listings leave the catalog; never the admin's own row (403).
 */
export async function setUserSuspended(userId: string, suspended: boolean): Promise<ModeratedUser> {
  const action = suspended ? 'suspend' : 'restore';
  return moderatedUserSchema.parse(
    await apiSend('POST', `/api/admin/users/${encodeURIComponent(userId)}/${action}`),
  );
}

export function useSetUserSuspended(callbacks: {
  onDone: (user: ModeratedUser) => void;
  onFailed: (error: unknown, suspended: boolean) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, suspended }: { userId: string; suspended: boolean }) =>
      setUserSuspended(userId, suspended),
    onSuccess: (user) => {
      callbacks.onDone(user);
      return invalidateModeration(queryClient);
    },
    onError: (error, { suspended }) => callbacks.onFailed(error, suspended),
  });
}
