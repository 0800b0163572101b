import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderMessageSchema, type OrderMessage } from '@domain/messages';
import { apiSend } from '../../../lib/api-client';
import { orderMessagesKey } from './message-keys';

/** POST /api/messages {orderId, content}. */
export async function sendOrderMessage(orderId: string, content: string): Promise<OrderMessage> {
  return orderMessageSchema.parse(await apiSend('POST', '/api/messages', { orderId, content }));
}

export function useSendOrderMessage(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => sendOrderMessage(orderId, content),
    onSuccess: (sent) => {
      // Shown at once; the read that follows brings anyone else's too.
      queryClient.setQueryData<OrderMessage[]>(orderMessagesKey(orderId), (list) =>
        list && !list.some((message) => message.id === sent.id) ? [...list, sent] : list,
      );
      return queryClient.invalidateQueries({ queryKey: orderMessagesKey(orderId) });
    },
  });
}
