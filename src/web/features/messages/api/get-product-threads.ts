import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { MESSAGES_POLL_MS, productThreadSchema, type ProductThread } from '@domain/messages';
import { apiGet } from '../../../lib/api-client';
import { PRODUCT_THREADS_KEY } from './message-keys';

/** GET /api/product-messages/threads: the conversations about the seller's products. */
export async function fetchProductThreads(signal?: AbortSignal): Promise<ProductThread[]> {
  return z.array(productThreadSchema).parse(await apiGet('/api/product-messages/threads', signal));
}

/** Read again every 30 s like the conversations, and at once when a message arrives. */
export function useProductThreads() {
  return useQuery({
    queryKey: PRODUCT_THREADS_KEY,
    queryFn: ({ signal }) => fetchProductThreads(signal),
    refetchInterval: MESSAGES_POLL_MS,
  });
}
