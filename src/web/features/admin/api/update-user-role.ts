import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@domain/roles';
import { moderatedUserSchema, type ModeratedUser } from '@domain/users';
import { apiSend } from '../../../lib/api-client';
import { invalidateModeration } from './admin-data';

/** PATCH /api/admin/users/{id}/role: grants the role and makes it current (never the admin's own row). */
export async function updateUserRole(userId: string, role: Role): Promise<ModeratedUser> {
  return moderatedUserSchema.parse(
    await apiSend('PATCH', `/api/admin/users/${encodeURIComponent(userId)}/role`, { role }),
  );
}

export function useUpdateUserRole(callbacks: {
  onUpdated: (user: ModeratedUser) => void;
  onFailed: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => updateUserRole(userId, role),
    onSuccess: (user) => {
      callbacks.onUpdated(user);
      return invalidateModeration(queryClient);
    },
    onError: (error) => callbacks.onFailed(error),
  });
}
