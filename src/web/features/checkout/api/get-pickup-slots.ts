import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { Slot } from '@domain/availability';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/availability/slots/{sellerId}: the seller's pickup times
 * (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
export async function fetchPickupSlots(sellerId: string, signal?: AbortSignal): Promise<Slot[]> {
  // The schemas load with the first request, beside it, not with the page
  // (docs/decisions/0014-first-load.md).
  const [{ slotSchema }, body] = await Promise.all([
    import('@domain/availability'),
    apiGet(`/api/availability/slots/${encodeURIComponent(sellerId)}`, signal),
  ]);
  return z.array(slotSchema).parse(body);
}

export function pickupSlotsQueryOptions(sellerId: string) {
  return queryOptions({
    queryKey: ['/api/availability/slots', sellerId] as const,
    queryFn: ({ signal }) => fetchPickupSlots(sellerId, signal),
    // Slots start at least an hour from now: a checkout opened again asks again.
    staleTime: 0,
  });
}

export function usePickupSlots(sellerId: string, enabled: boolean) {
  return useQuery({ ...pickupSlotsQueryOptions(sellerId), enabled });
}
