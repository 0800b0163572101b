import { useMutation } from '@tanstack/react-query';
import { accountMessageSchema, type ChangePasswordBody } from '@domain/accounts';
import { apiSend } from '../../../lib/api-client';

/** POST /api/auth/password: change of password (docs/decisions/0019-reaching-people.md, Accounts). */
export function useChangePassword() {
  return useMutation({
    mutationFn: async (body: ChangePasswordBody) =>
      accountMessageSchema.parse(await apiSend('POST', '/api/auth/password', body)),
  });
}

/** POST /api/resend-verification: a new link to confirm the address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: async (email: string) =>
      accountMessageSchema.parse(await apiSend('POST', '/api/resend-verification', { email })),
  });
}
