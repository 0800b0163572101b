import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { emailPreferencesSchema, type EmailPreferences } from '@domain/mail';
import { apiGet, apiSend } from '../../../lib/api-client';

const EMAIL_PREFERENCES_KEY = ['/api/auth/user/email-preferences'] as const;

/** GET /api/auth/user/email-preferences: the user's mail switches (docs/decisions/0019-reaching-people.md, Mail). */
export function useEmailPreferences() {
  return useQuery({
    queryKey: EMAIL_PREFERENCES_KEY,
    queryFn: async ({ signal }) =>
      emailPreferencesSchema.parse(await apiGet('/api/auth/user/email-preferences', signal)),
  });
}

/** PATCH /api/auth/user/email-preferences. */
export function useSetEmailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: EmailPreferences) =>
      emailPreferencesSchema.parse(await apiSend('PATCH', '/api/auth/user/email-preferences', body)),
    onSuccess: (saved) => queryClient.setQueryData(EMAIL_PREFERENCES_KEY, saved),
  });
}
