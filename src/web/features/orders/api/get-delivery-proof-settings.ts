import { useQuery } from '@tanstack/react-query';
import { deliveryProofSettingsSchema, type DeliveryProofSettings } from '@domain/delivery-proof';
import { apiGet } from '../../../lib/api-client';

export const DELIVERY_PROOF_KEY = ['/api/delivery-proof-settings'] as const;

/** GET /api/delivery-proof-settings: which proof Mark Delivered needs (docs/rules/deliveries.md, Deliveries). */
export async function fetchDeliveryProofSettings(signal?: AbortSignal): Promise<DeliveryProofSettings> {
  return deliveryProofSettingsSchema.parse(await apiGet('/api/delivery-proof-settings', signal));
}

export function useDeliveryProofSettings(enabled: boolean) {
  return useQuery({
    queryKey: DELIVERY_PROOF_KEY,
    queryFn: ({ signal }) => fetchDeliveryProofSettings(signal),
    enabled,
  });
}
