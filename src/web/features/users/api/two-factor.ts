import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  twoFactorEnabledSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
  type DisableTwoFactorBody,
} from '@domain/two-factor';
import { apiGet, apiSend } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/use-auth';

/** Two-factor sign-in from the profile (docs/decisions/0024-two-factor-sign-in.md). */
const TWO_FACTOR_KEY = ['/api/auth/two-factor'] as const;

/** GET /api/auth/two-factor: on or off, recovery codes left; never the secret. */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: TWO_FACTOR_KEY,
    queryFn: async ({ signal }) => twoFactorStatusSchema.parse(await apiGet('/api/auth/two-factor', signal)),
  });
}

/** POST /api/auth/two-factor/setup: a new secret and its QR code, made on the server. */
export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: async () => twoFactorSetupSchema.parse(await apiSend('POST', '/api/auth/two-factor/setup')),
  });
}

/**
 * Both change what the account may do: an administrator who had to set it up gets the admin role
 * back, so the user is read again too.
 */
function useRefreshAccount() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY }),
      queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
    ]);
}

/** POST /api/auth/two-factor/enable: answers the recovery codes, shown once. */
export function useEnableTwoFactor() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: async (code: string) =>
      twoFactorEnabledSchema.parse(await apiSend('POST', '/api/auth/two-factor/enable', { code })),
    onSuccess: refresh,
  });
}

/** POST /api/auth/two-factor/disable: with the password or a current code. */
export function useDisableTwoFactor() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: async (body: DisableTwoFactorBody) => {
      await apiSend('POST', '/api/auth/two-factor/disable', body);
    },
    onSuccess: refresh,
  });
}
