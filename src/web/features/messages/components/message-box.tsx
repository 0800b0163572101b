import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Send } from 'lucide-react';
import { canSendMessage, MESSAGE_MAX_LENGTH } from '@domain/messages';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { statusOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { cn } from '../../../lib/utils';
import { formatCount } from '@domain/format-count';

/** The toast of a message that could not be sent (docs/rules/selling.md, Reviews and messages). */
export const SEND_MESSAGE_FAILED = 'Failed to send message';

export interface ShownMessage {
  id: string;
  senderId: string;
  content: string;
  createdAt: string;
  /** Who wrote it, for someone else's message ("Sol Seller · Seller"). */
  senderLabel: string;
}

interface MessageBoxProps {
  messages: readonly ShownMessage[] | undefined;
  viewerId: string;
  /** The height of the message area: 200 px for a product, 400 px for an order (Constants). */
  heightPx: number;
  isLoading: boolean;
  isError: boolean;
  emptyText: string;
  /** The text box's accessible name ("Message to the seller"). */
  inputLabel: string;
  placeholder: string;
  onSend: (content: string) => Promise<unknown>;
  isSending: boolean;
}

/** Counts are shown once the text nears the limit, so the limit never comes as a surprise. */
const SHOW_COUNT_FROM = MESSAGE_MAX_LENGTH - 200;

/**
 * A conversation and its text box (docs/rules/selling.md, Reviews and messages): the messages,
 * oldest first, with who wrote them and when (in the marketplace time zone); Enter sends and
 * Shift+Enter adds a line; blank or whitespace-only text is never sent; at most 2,000 characters.
 * A failed send keeps the text and says "Failed to send message".
 */
export function MessageBox({
  messages,
  viewerId,
  heightPx,
  isLoading,
  isError,
  emptyText,
  inputLabel,
  placeholder,
  onSend,
  isSending,
}: MessageBoxProps) {
  const [text, setText] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const countId = useId();
  const canSend = canSendMessage(text) && !isSending;
  const count = messages?.length ?? 0;

  // The newest message is at the bottom: keep it in view as messages arrive. An empty thread has
  // nothing to scroll to, and asking its height would lay the whole page out at once.
  useEffect(() => {
    const list = listRef.current;
    if (list && count > 0) list.scrollTop = list.scrollHeight;
  }, [count]);

  const send = async () => {
    if (!canSend) return;
    try {
      await onSend(text);
      setText('');
    } catch (error) {
      // Too many messages: the server's sentence says how long to wait.
      toastMutationError(error, SEND_MESSAGE_FAILED, { appendServerMessage: statusOf(error) === 429 });
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter (and Enter while composing an accented letter) adds to the text.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  return (
    <div className="flex flex-col gap-3">
      <div
        ref={listRef}
        role="log"
        aria-label="Messages"
        aria-live="polite"
        tabIndex={0}
        style={{ height: heightPx }}
        className="flex flex-col gap-2 overflow-y-auto rounded-md border bg-muted/30 p-3 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {isLoading ? (
          <p role="status" className="m-auto text-sm text-muted-foreground">
            Loading messages...
          </p>
        ) : isError ? (
          <p role="alert" className="m-auto text-sm text-destructive">
            Messages could not be loaded.
          </p>
        ) : count === 0 ? (
          <p className="m-auto text-center text-sm text-muted-foreground">{emptyText}</p>
        ) : (
          messages?.map((message) => {
            const isOwn = message.senderId === viewerId;
            return (
              <div
                key={message.id}
                className={cn(
                  'flex max-w-[85%] flex-col gap-0.5',
                  isOwn ? 'self-end items-end' : 'self-start',
                )}
              >
                <p className="text-xs text-muted-foreground">
                  {isOwn ? 'You' : message.senderLabel} · {formatDateTime(message.createdAt)}
                </p>
                <p
                  className={cn(
                    'whitespace-pre-wrap break-words rounded-lg px-3 py-2 text-sm',
                    isOwn ? 'bg-primary text-primary-foreground' : 'bg-background border',
                  )}
                >
                  {message.content}
                </p>
              </div>
            );
          })
        )}
      </div>
      <form onSubmit={onSubmit} className="flex flex-col gap-2">
        <Textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          maxLength={MESSAGE_MAX_LENGTH}
          rows={2}
          className="min-h-16 resize-y"
          aria-label={inputLabel}
          aria-describedby={text.length >= SHOW_COUNT_FROM ? countId : undefined}
          placeholder={placeholder}
        />
        <div className="flex items-center justify-between gap-3">
          <p className="text-xs text-muted-foreground">
            {text.length >= SHOW_COUNT_FROM ? (
              <span id={countId}>
                {formatCount(text.length)} / {formatCount(MESSAGE_MAX_LENGTH)} characters
              </span>
            ) : (
              'Enter sends, Shift+Enter adds a line'
            )}
          </p>
          <Button type="submit" size="sm" disabled={!canSend}>
            <Send aria-hidden="true" />
            {isSending ? 'Sending...' : 'Send'}
          </Button>
        </div>
      </form>
    </div>
  );
}
