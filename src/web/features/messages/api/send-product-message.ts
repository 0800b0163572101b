import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productMessageSchema, type ProductMessage } from '@domain/messages';
import { apiSend } from '../../../lib/api-client';
import { productMessagesKey } from './message-keys';

/** POST /api/product-messages {productId, content}; the seller's answer names the buyer. */
export async function sendProductMessage(
  productId: string,
  buyerId: string | undefined,
  content: string,
): Promise<ProductMessage> {
  return productMessageSchema.parse(
    await apiSend('POST', '/api/product-messages', { productId, content, ...(buyerId ? { buyerId } : {}) }),
  );
}

export function useSendProductMessage(productId: string, buyerId?: string) {
  const queryClient = useQueryClient();
  const key = productMessagesKey(productId, buyerId);
  return useMutation({
    mutationFn: (content: string) => sendProductMessage(productId, buyerId, content),
    onSuccess: (sent) => {
      queryClient.setQueryData<ProductMessage[]>(key, (list) =>
        list && !list.some((message) => message.id === sent.id) ? [...list, sent] : list,
      );
      return queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
