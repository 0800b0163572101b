import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@domain/roles';
import type { CurrentUser } from '@domain/users';
import { apiSend } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { CURRENT_USER_KEY } from '../../../lib/use-auth';

/** PATCH /api/users/{id}/role: makes one of the user's granted roles the current one. */
export async function updateRole(userId: string, role: Role): Promise<CurrentUser> {
  // The user schemas are not part of the first load (docs/decisions/0014-first-load.md).
  const [{ currentUserSchema }, body] = await Promise.all([
    import('@domain/users'),
    apiSend('PATCH', `/api/users/${encodeURIComponent(userId)}/role`, { role }),
  ]);
  return currentUserSchema.parse(body);
}

/**
 * Refresh the current user on success; a 401 signs in again after 500 ms
 * (docs/rules/accounts.md, Roles and permissions; docs/rules/screens-shared.md, Client behaviour).
 */
export function useUpdateRole(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: Role) => updateRole(userId, role),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
    onError: (error) => toastMutationError(error, 'Failed to update role'),
  });
}
