import { queryOptions, useQuery } from '@tanstack/react-query';
import { commissionSettingsSchema, type CommissionSettingsText } from '@domain/fees';
import { apiGet } from '../../../lib/api-client';

/** The commission settings are read again every 5 minutes (docs/rules/screens-shared.md, Constants). */
export const COMMISSION_SETTINGS_POLL_MS = 5 * 60_000;

/** GET /api/commission-settings (public): the eight settings as strings. */
export async function fetchCommissionSettings(signal?: AbortSignal): Promise<CommissionSettingsText> {
  return commissionSettingsSchema.parse(await apiGet('/api/commission-settings', signal));
}

export function useCommissionSettings() {
  return useQuery(
    queryOptions({
      queryKey: ['/api/commission-settings'] as const,
      queryFn: ({ signal }) => fetchCommissionSettings(signal),
      refetchInterval: COMMISSION_SETTINGS_POLL_MS,
    }),
  );
}
