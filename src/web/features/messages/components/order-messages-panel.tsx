import { useEffect } from 'react';
import { capitalise, displayName } from '@domain/roles';
import { ORDER_MESSAGES_HEIGHT_PX, type OrderMessage } from '@domain/messages';
import { useOrderMessages } from '../api/get-order-messages';
import { useSendOrderMessage } from '../api/send-order-message';
import { orderConversation, showConversation } from '../open-conversations';
import { MessageBox } from './message-box';

function senderLabelOf(message: OrderMessage): string {
  const { role } = message.sender;
  return `${displayName({ ...message.sender, role })} · ${capitalise(role)}`;
}

/**
 * The order's conversation in the order details view of every role (docs/rules/screens-buyer.md, Order
 * screens; docs/rules/selling.md, Reviews and messages): its buyer, seller, driver and admins, in a 400 px
 * message area.
 */
export function OrderMessagesPanel({ orderId, viewerId }: { orderId: string; viewerId: string }) {
  const thread = useOrderMessages(orderId);
  const send = useSendOrderMessage(orderId);
  useEffect(() => showConversation(orderConversation(orderId)), [orderId]);

  return (
    <MessageBox
      messages={thread.data?.map((message) => ({ ...message, senderLabel: senderLabelOf(message) }))}
      viewerId={viewerId}
      heightPx={ORDER_MESSAGES_HEIGHT_PX}
      isLoading={thread.isLoading}
      isError={thread.isError}
      emptyText="No messages yet. The buyer, the seller and the driver of this order can write here."
      inputLabel="Message about this order"
      placeholder="Type a message..."
      onSend={(content) => send.mutateAsync(content)}
      isSending={send.isPending}
    />
  );
}
