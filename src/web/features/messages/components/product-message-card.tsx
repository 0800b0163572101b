import { useEffect, useId } from 'react';
import { MessageSquare } from 'lucide-react';
import { PRODUCT_MESSAGES_HEIGHT_PX } from '@domain/messages';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useProductMessages } from '../api/get-product-messages';
import { useSendProductMessage } from '../api/send-product-message';
import { productConversation, showConversation } from '../open-conversations';
import { MessageBox } from './message-box';

/**
 * The message-the-seller card of a signed-in buyer on a product page (docs/rules/screens-buyer.md,
 * Catalog screens; Reviews and messages): their own conversation with the seller about this
 * product, in a 200 px message area.
 */
export function ProductMessageCard({
  productId,
  sellerName,
  viewerId,
}: {
  productId: string;
  sellerName: string;
  viewerId: string;
}) {
  const thread = useProductMessages(productId);
  const send = useSendProductMessage(productId);
  useEffect(() => showConversation(productConversation(productId, viewerId)), [productId, viewerId]);

  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="pb-4">
        <CardTitle id={titleId} as="h2" className="flex items-center gap-2">
          <MessageSquare className="size-5" aria-hidden="true" />
          Message the seller
        </CardTitle>
        <CardDescription>Ask {sellerName} about this product. Only the two of you see this.</CardDescription>
      </CardHeader>
      <CardContent>
        <MessageBox
          messages={thread.data?.map((message) => ({ ...message, senderLabel: `${sellerName} · Seller` }))}
          viewerId={viewerId}
          heightPx={PRODUCT_MESSAGES_HEIGHT_PX}
          isLoading={thread.isLoading}
          isError={thread.isError}
          emptyText="No messages yet. Ask the seller anything about this product."
          inputLabel="Message to the seller"
          placeholder="Type your question..."
          onSend={(content) => send.mutateAsync(content)}
          isSending={send.isPending}
        />
      </CardContent>
    </Card>
  );
}
