import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { liveEventSchema } from '@domain/live-events';
import type { SessionUser } from '@domain/users';
import { ToastAction } from '../../components/ui/toast';
import { notice as showNotice } from '../../components/ui/use-toast';
import { CURRENT_USER_KEY } from '../../lib/use-auth';
import { applyLiveEvent, LIVE_QUERY_PREFIXES, orderLinkOf } from './apply-live-event';

/**
 * The stream's address: on the page's first connection it catches up from the live cursor the page
 * read with who is signed in, before anything else, so an event sent while the page loaded is not
 * lost (an EventSource cannot send Last-Event-ID on its first connection).
 */
function eventsUrl(liveCursor: number | undefined): string {
  return liveCursor === undefined ? '/api/events' : `/api/events?since=${liveCursor}`;
}

/**
 * Listens to GET /api/events while a user is signed in (docs/rules/live-updates.md, Live updates). The
 * first connection starts from the page's live cursor; the browser's EventSource reconnects by
 * itself and sends Last-Event-ID, so the server sends what was missed; after a reconnect
 * everything an event could have changed is read again too. The screens' own polls stay as the
 * fallback. Renders nothing; loaded on demand, outside the first load.
 */
export function LiveUpdates({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    const user = queryClient.getQueryData<SessionUser | null>(CURRENT_USER_KEY);
    const source = new EventSource(eventsUrl(user?.id === userId ? user.liveCursor : undefined));
    let hasDropped = false;
    source.onmessage = (message: MessageEvent<string>) => {
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      const parsed = liveEventSchema.safeParse(data);
      if (!parsed.success) return;
      const notice = applyLiveEvent(parsed.data, queryClient, userId);
      if (!notice) return;
      // View opens the order, selected and in view even on a phone, where its details sit under
      // the list (docs/rules/live-updates.md, Live updates).
      const link = orderLinkOf(parsed.data, userId);
      showNotice(
        link
          ? {
              ...notice,
              action: (
                <ToastAction altText="View the order" onClick={() => navigateRef.current(link)}>
                  View
                </ToastAction>
              ),
            }
          : notice,
      );
    };
    source.onerror = () => {
      hasDropped = true;
      // The server refused to take the stream back: the session ended (a suspension, a password
      // reset), and the server ends such a user's streams at once, perhaps before the event that
      // says so arrived. Who is signed in is read again, which signs a suspended user out.
      if (source.readyState === EventSource.CLOSED)
        void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    };
    source.onopen = () => {
      if (!hasDropped) return;
      hasDropped = false;
      for (const queryKey of LIVE_QUERY_PREFIXES) void queryClient.invalidateQueries({ queryKey });
    };
    return () => source.close();
  }, [queryClient, userId]);
  return null;
}
