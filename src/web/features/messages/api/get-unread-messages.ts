import { useQuery } from '@tanstack/react-query';
import { unreadMessagesSchema, type UnreadMessages } from '@domain/unread-messages';
import { apiGet } from '../../../lib/api-client';
import { UNREAD_MESSAGES_KEY } from './message-keys';

/** The header's count falls back to a read every 60 s, like the orders list. */
export const UNREAD_POLL_MS = 60_000;

/** GET /api/messages/unread. */
export async function fetchUnreadMessages(signal?: AbortSignal): Promise<UnreadMessages> {
  return unreadMessagesSchema.parse(await apiGet('/api/messages/unread', signal));
}

export function useUnreadMessages() {
  return useQuery({
    queryKey: UNREAD_MESSAGES_KEY,
    queryFn: ({ signal }) => fetchUnreadMessages(signal),
    refetchInterval: UNREAD_POLL_MS,
  });
}
