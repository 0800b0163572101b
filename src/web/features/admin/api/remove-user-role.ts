import { useMutation, useQueryClient } from '@tanstack/react-query';
import { moderatedUserSchema, type ModeratedUser, type REMOVABLE_ROLES } from '@domain/users';
import { apiSend } from '../../../lib/api-client';
import { invalidateModeration } from './admin-data';

export type RemovableRole = (typeof REMOVABLE_ROLES)[number];

/**
 * DELETE /api/admin/users/{id}/roles/{role}: takes seller, driver or admin away from another user
 * (403 on the admin's own row; 409 for the last admin).
 */
export async function removeUserRole(userId: string, role: RemovableRole): Promise<ModeratedUser> {
  return moderatedUserSchema.parse(
    await apiSend(
      'DELETE',
      `/api/admin/users/${encodeURIComponent(userId)}/roles/${encodeURIComponent(role)}`,
    ),
  );
}

export function useRemoveUserRole(callbacks: {
  onRemoved: (user: ModeratedUser, role: RemovableRole) => void;
  onFailed: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: RemovableRole }) => removeUserRole(userId, role),
    onSuccess: (user, { role }) => {
      callbacks.onRemoved(user, role);
      return invalidateModeration(queryClient);
    },
    onError: (error) => callbacks.onFailed(error),
  });
}
