import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { liveEventSchema } from '@domain/live-events';
import { toast } from '../../components/ui/use-toast';
import { applyLiveEvent, LIVE_QUERY_PREFIXES } from './apply-live-event';

/**
 * Listens to GET /api/events while a user is signed in (docs/product-rules.md, Live updates). The
 * browser's EventSource reconnects by itself and sends Last-Event-ID, so the server sends what was
 * missed; after a reconnect everything an event could have changed is read again too. The screens'
 * own polls stay as the fallback. Renders nothing; loaded on demand, outside the first load.
 */
export function LiveUpdates({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    const source = new EventSource('/api/events');
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
      if (notice) toast(notice);
    };
    source.onerror = () => {
      hasDropped = true;
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
