import { useEffect, useState } from 'react';
import { Inbox, RotateCw } from 'lucide-react';
import { PRODUCT_MESSAGES_HEIGHT_PX, type ProductThread } from '@domain/messages';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { useProductMessages } from '../api/get-product-messages';
import { useProductThreads } from '../api/get-product-threads';
import { useSendProductMessage } from '../api/send-product-message';
import { productConversation, showConversation } from '../open-conversations';
import { MessageBox } from './message-box';

export interface ThreadRef {
  productId: string;
  buyerId: string;
}

const threadKey = (thread: ThreadRef) => `${thread.productId}:${thread.buyerId}`;

function ThreadConversation({ thread, sellerId }: { thread: ProductThread; sellerId: string }) {
  const messages = useProductMessages(thread.productId, thread.buyerId);
  const send = useSendProductMessage(thread.productId, thread.buyerId);
  useEffect(
    () => showConversation(productConversation(thread.productId, thread.buyerId)),
    [thread.productId, thread.buyerId],
  );
  return (
    <section
      aria-label={`Conversation with ${thread.buyerName} about ${thread.productName}`}
      className="flex flex-col gap-3"
    >
      <div>
        <h3 className="font-semibold">{thread.buyerName}</h3>
        <p className="text-sm text-muted-foreground">About {thread.productName}</p>
      </div>
      <MessageBox
        messages={messages.data?.map((message) => ({
          ...message,
          senderLabel: `${thread.buyerName} · Buyer`,
        }))}
        viewerId={sellerId}
        heightPx={PRODUCT_MESSAGES_HEIGHT_PX * 2}
        isLoading={messages.isLoading}
        isError={messages.isError}
        emptyText="No messages yet."
        inputLabel={`Answer to ${thread.buyerName}`}
        placeholder="Type your answer..."
        onSend={(content) => send.mutateAsync(content)}
        isSending={send.isPending}
      />
    </section>
  );
}

/**
 * The seller's Messages (beyond the specification: a seller must be able to answer): the
 * conversations buyers opened about the seller's products, by product and buyer, the latest first,
 * each with how many messages are unread; choosing one opens it for an answer
 * (docs/rules/selling.md, Reviews and messages).
 */
export function SellerMessagesPanel({ sellerId, initial }: { sellerId: string; initial?: ThreadRef | null }) {
  const threads = useProductThreads();
  const [chosen, setChosen] = useState<ThreadRef | null>(initial ?? null);
  const list = threads.data ?? [];
  const selected =
    list.find((thread) => chosen && threadKey(thread) === threadKey(chosen)) ??
    (chosen ? undefined : list[0]);

  if (threads.isLoading)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading messages...
      </p>
    );
  if (threads.isError)
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
        <span>Your messages could not be loaded.</span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void threads.refetch()}
          disabled={threads.isFetching}
        >
          <RotateCw aria-hidden="true" />
          Try Again
        </Button>
      </div>
    );
  if (list.length === 0)
    return (
      <p className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
        <Inbox className="size-6" aria-hidden="true" />
        No messages yet. Questions buyers ask about your products show here.
      </p>
    );

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <ul aria-label="Conversations" className="flex max-h-[32rem] flex-col gap-2 overflow-y-auto lg:pr-1">
        {list.map((thread) => {
          const isSelected = selected !== undefined && threadKey(thread) === threadKey(selected);
          return (
            <li key={threadKey(thread)}>
              <button
                type="button"
                onClick={() => setChosen({ productId: thread.productId, buyerId: thread.buyerId })}
                aria-current={isSelected ? 'true' : undefined}
                className={cn(
                  'flex w-full flex-col gap-1 rounded-lg border p-3 text-left transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  isSelected && 'border-primary bg-accent',
                )}
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="truncate font-medium">{thread.buyerName}</span>
                  {thread.unreadCount > 0 ? (
                    <Badge aria-label={`${thread.unreadCount} unread`}>{thread.unreadCount}</Badge>
                  ) : null}
                </span>
                <span className="truncate text-sm text-muted-foreground">{thread.productName}</span>
                <span className="line-clamp-2 text-sm">
                  {thread.lastMessage.senderId === sellerId ? 'You: ' : ''}
                  {thread.lastMessage.content}
                </span>
                <span className="text-xs text-muted-foreground">
                  {formatDateTime(thread.lastMessage.createdAt)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <div className="lg:col-span-2">
        {selected ? (
          <ThreadConversation key={threadKey(selected)} thread={selected} sellerId={sellerId} />
        ) : (
          <p className="text-sm text-muted-foreground">This conversation is no longer here.</p>
        )}
      </div>
    </div>
  );
}
