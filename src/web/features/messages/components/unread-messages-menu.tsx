import { Link } from 'wouter';
import { MessageSquare } from 'lucide-react';
import type { UnreadThread } from '@domain/unread-messages';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { useUnreadMessages } from '../api/get-unread-messages';

/** Where a conversation opens: the page that shows it to the reader in their capacity. */
export function conversationHref(thread: UnreadThread): string {
  if (thread.kind === 'product') {
    if (thread.as === 'buyer') return `/products/${thread.productId}`;
    const query = new URLSearchParams({ tab: 'messages', product: thread.productId, buyer: thread.buyerId });
    return `/seller/dashboard?${query}`;
  }
  const page = { buyer: '/buyer/orders', seller: '/seller/dashboard', driver: '/driver/dashboard' }[
    thread.as
  ];
  return `${page}?order=${encodeURIComponent(thread.orderId)}`;
}

function threadLabel(thread: UnreadThread): string {
  return thread.kind === 'order'
    ? `Order ${thread.orderNumber}`
    : `${thread.productName} · ${thread.withName}`;
}

/**
 * The header's unread-message count (beyond the specification; docs/rules/selling.md, Reviews and
 * messages): a badge on the messages button while anything is unread, and the conversations behind
 * it, each opening where it is read. Opening one clears its part of the count.
 */
export function UnreadMessagesMenu() {
  const unread = useUnreadMessages();
  const total = unread.data?.total ?? 0;
  const threads = unread.data?.threads ?? [];
  const label = total > 0 ? `Messages: ${total} unread` : 'Messages: nothing unread';

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label}>
          <MessageSquare aria-hidden="true" />
          {total > 0 ? (
            <span
              className="absolute -right-0.5 -top-0.5 flex min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-xs font-semibold tabular-nums text-destructive-foreground"
              aria-hidden="true"
            >
              {total > 99 ? '99+' : total}
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-72">
        <DropdownMenuLabel>Unread messages</DropdownMenuLabel>
        {threads.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">No unread messages.</p>
        ) : (
          threads.map((thread) => (
            <DropdownMenuItem
              key={`${thread.kind}-${thread.kind === 'order' ? thread.orderId : `${thread.productId}-${thread.buyerId}`}`}
              asChild
            >
              <Link href={conversationHref(thread)} className="flex items-center justify-between gap-2">
                <span className="truncate">{threadLabel(thread)}</span>
                <span className="shrink-0 text-xs font-semibold tabular-nums">{thread.count} new</span>
              </Link>
            </DropdownMenuItem>
          ))
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
