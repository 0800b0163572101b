import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimImageBody } from '@domain/uploads';
import { currentUserSchema, type CurrentUser } from '@domain/users';
import { apiSend } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/use-auth';

export type DriverImageKind = 'vehicle' | 'license' | 'trailer';

/**
 * PUT /api/drivers/{vehicle,license,trailer}-image {imageUrl} (docs/rules/selling.md, Uploads and who
 * sees a file): the driver's own upload, then readable by them and admins only. Answers the current
 * user.
 */
export async function saveDriverImage(kind: DriverImageKind, imageUrl: string): Promise<CurrentUser> {
  const body: ClaimImageBody = { imageUrl };
  return currentUserSchema.parse(await apiSend('PUT', `/api/drivers/${kind}-image`, body));
}

/** The verification card reads the current user, so it shows the new image at once. */
export function useSaveDriverImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, imageUrl }: { kind: DriverImageKind; imageUrl: string }) =>
      saveDriverImage(kind, imageUrl),
    onSuccess: (user) => {
      queryClient.setQueryData(CURRENT_USER_KEY, user);
      return queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
