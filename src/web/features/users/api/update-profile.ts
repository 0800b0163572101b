import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserSchema, type CurrentUser, type UpdateNamesBody } from '@domain/users';
import { apiSend } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/use-auth';

/**
 * PATCH /api/auth/user {firstName, lastName}: the user's own names
 * (docs/rules/screens-buyer.md, Account pages).
 */
export async function updateProfile(body: UpdateNamesBody): Promise<CurrentUser> {
  return currentUserSchema.parse(await apiSend('PATCH', '/api/auth/user', body));
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      queryClient.setQueryData(CURRENT_USER_KEY, user);
      return queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
