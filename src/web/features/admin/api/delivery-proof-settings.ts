import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deliveryProofSettingsSchema, type DeliveryProofSettings } from '@domain/delivery-proof';
import { apiGet, apiSend } from '../../../lib/api-client';
import { ADMIN_POLL_MS, invalidateAdminData } from './admin-data';

/** GET /api/admin/delivery-proof-settings: which proof Mark Delivered needs (docs/rules/known-differences.md, Admin). */
export async function fetchDeliveryProofSettings(signal?: AbortSignal): Promise<DeliveryProofSettings> {
  return deliveryProofSettingsSchema.parse(await apiGet('/api/admin/delivery-proof-settings', signal));
}

export const deliveryProofSettingsQueryOptions = queryOptions({
  queryKey: ['/api/admin/delivery-proof-settings'] as const,
  queryFn: ({ signal }) => fetchDeliveryProofSettings(signal),
  refetchInterval: ADMIN_POLL_MS,
});

export function useDeliveryProofSettings() {
  return useQuery(deliveryProofSettingsQueryOptions);
}

/** PUT /api/admin/delivery-proof-settings: the four switches. */
export async function saveDeliveryProofSettings(body: DeliveryProofSettings): Promise<DeliveryProofSettings> {
  return deliveryProofSettingsSchema.parse(await apiSend('PUT', '/api/admin/delivery-proof-settings', body));
}

export function useSaveDeliveryProofSettings(callbacks: {
  onSaved: () => void;
  onFailed: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDeliveryProofSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(deliveryProofSettingsQueryOptions.queryKey, settings);
      callbacks.onSaved();
      return Promise.all([
        invalidateAdminData(queryClient),
        // What the drivers' Proof of Delivery dialog asks for.
        queryClient.invalidateQueries({ queryKey: ['/api/delivery-proof-settings'] }),
      ]);
    },
    onError: (error) => callbacks.onFailed(error),
  });
}
