import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SelfServiceRole } from '@domain/roles';
import { currentUserSchema, type CurrentUser } from '@domain/users';
import { apiSend } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/use-auth';

/**
 * POST /api/auth/user/roles: grants seller or driver and makes it current
 * (docs/rules/accounts.md, Roles and permissions).
 */
export async function becomeRole(role: SelfServiceRole): Promise<CurrentUser> {
  return currentUserSchema.parse(await apiSend('POST', '/api/auth/user/roles', { role }));
}

export function useBecomeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: becomeRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
  });
}
