import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { MESSAGES_POLL_MS, productMessageSchema, type ProductMessage } from '@domain/messages';
import { apiGet } from '../../../lib/api-client';
import { PRODUCT_THREADS_KEY, productMessagesKey, UNREAD_MESSAGES_KEY } from './message-keys';

/**
 * GET /api/product-messages?productId=…: the buyer's conversation with the seller about the
 * product; the seller names the buyer (`buyerId`).
 */
export async function fetchProductMessages(
  productId: string,
  buyerId: string | undefined,
  signal?: AbortSignal,
): Promise<ProductMessage[]> {
  const query = new URLSearchParams({ productId, ...(buyerId ? { buyerId } : {}) });
  return z.array(productMessageSchema).parse(await apiGet(`/api/product-messages?${query}`, signal));
}

/** Polled every 30 s while shown; reading clears the unread count (header and Messages tab). */
export function useProductMessages(productId: string, buyerId?: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: productMessagesKey(productId, buyerId),
    queryFn: ({ signal }) => fetchProductMessages(productId, buyerId, signal),
    refetchInterval: MESSAGES_POLL_MS,
  });
  const { dataUpdatedAt } = query;
  useEffect(() => {
    if (dataUpdatedAt === 0) return;
    void queryClient.invalidateQueries({ queryKey: UNREAD_MESSAGES_KEY });
    void queryClient.invalidateQueries({ queryKey: PRODUCT_THREADS_KEY });
  }, [dataUpdatedAt, queryClient]);
  return query;
}
