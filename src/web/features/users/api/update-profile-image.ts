import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimImageBody } from '@domain/uploads';
import { currentUserSchema, type CurrentUser } from '@domain/users';
import { apiSend } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/use-auth';

/**
 * PUT /api/users/profile-image {imageUrl} (docs/rules/screens-buyer.md, Account pages): sets the user's
 * picture to an uploaded image, which makes it public
 * (docs/rules/selling.md, Uploads and who sees a file). Answers the current user.
 */
export async function updateProfileImage(imageUrl: string): Promise<CurrentUser> {
  const body: ClaimImageBody = { imageUrl };
  return currentUserSchema.parse(await apiSend('PUT', '/api/users/profile-image', body));
}

/** The header and the profile page read the current user, so both show the new picture. */
export function useUpdateProfileImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfileImage,
    onSuccess: (user) => {
      queryClient.setQueryData(CURRENT_USER_KEY, user);
      return queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
