import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { MESSAGES_POLL_MS, orderMessageSchema, type OrderMessage } from '@domain/messages';
import { apiGet } from '../../../lib/api-client';
import { orderMessagesKey, UNREAD_MESSAGES_KEY } from './message-keys';

/** GET /api/messages/order/{orderId}: the order's conversation, oldest first. */
export async function fetchOrderMessages(orderId: string, signal?: AbortSignal): Promise<OrderMessage[]> {
  return z
    .array(orderMessageSchema)
    .parse(await apiGet(`/api/messages/order/${encodeURIComponent(orderId)}`, signal));
}

/**
 * Polled every 30 s while shown, the fallback of the live updates (docs/rules/selling.md, Reviews
 * and messages). Reading marks the conversation read, so the header's count is read again after.
 */
export function useOrderMessages(orderId: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: orderMessagesKey(orderId),
    queryFn: ({ signal }) => fetchOrderMessages(orderId, signal),
    refetchInterval: MESSAGES_POLL_MS,
  });
  const { dataUpdatedAt } = query;
  useEffect(() => {
    if (dataUpdatedAt > 0) void queryClient.invalidateQueries({ queryKey: UNREAD_MESSAGES_KEY });
  }, [dataUpdatedAt, queryClient]);
  return query;
}
