import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommissionSettingsBody } from '@domain/admin';
import { commissionSettingsSchema, type CommissionSettingsText } from '@domain/fees';
import { apiGet, apiSend } from '../../../lib/api-client';
import { ADMIN_POLL_MS, invalidateAdminData } from './admin-data';

/** GET /api/admin/commission-settings: the eight settings as strings. */
export async function fetchCommissionSettings(signal?: AbortSignal): Promise<CommissionSettingsText> {
  return commissionSettingsSchema.parse(await apiGet('/api/admin/commission-settings', signal));
}

export const commissionSettingsQueryOptions = queryOptions({
  queryKey: ['/api/admin/commission-settings'] as const,
  queryFn: ({ signal }) => fetchCommissionSettings(signal),
  refetchInterval: ADMIN_POLL_MS,
});

export function useCommissionSettings() {
  return useQuery(commissionSettingsQueryOptions);
}

/** PATCH /api/admin/commission-settings: rates as fractions with 4 decimals, amounts with 2. */
export async function saveCommissionSettings(body: CommissionSettingsBody): Promise<CommissionSettingsText> {
  return commissionSettingsSchema.parse(await apiSend('PATCH', '/api/admin/commission-settings', body));
}

export function useSaveCommissionSettings(callbacks: {
  onSaved: (settings: CommissionSettingsText) => void;
  onFailed: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCommissionSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(commissionSettingsQueryOptions.queryKey, settings);
      callbacks.onSaved(settings);
      return Promise.all([
        invalidateAdminData(queryClient),
        // The public settings (the seller dashboard's explanation) change too.
        queryClient.invalidateQueries({ queryKey: ['/api/commission-settings'] }),
      ]);
    },
    onError: (error) => callbacks.onFailed(error),
  });
}
