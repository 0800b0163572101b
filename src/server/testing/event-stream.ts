import type { LiveEvent } from '../../domain/live-events';

/** One server-sent event as a browser's EventSource would hand it over. */
export interface ReceivedEvent {
  id: string | undefined;
  data: LiveEvent;
  at: number;
}

export interface EventStreamClient {
  status: number;
  contentType: string | null;
  events: ReceivedEvent[];
  /** Comment lines (`: heartbeat`). */
  comments: string[];
  /** Whether the server ended the stream. */
  ended: () => boolean;
  /** Resolves with the first event (from now or already received) that matches, or fails after `timeoutMs`. */
  waitFor(match: (event: LiveEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>;
  waitUntil(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * Opens GET /api/events on a listening server the way EventSource does (Accept:
 * text/event-stream, the session cookie, Last-Event-ID on a reconnect, `?since=` the page's live
 * cursor) and parses the frames. It resolves once the server said `retry:`, which it sends after the
 * stream is subscribed.
 */
export async function openEventStream(
  baseUrl: string,
  cookie: string,
  options: { lastEventId?: string; since?: string } = {},
): Promise<EventStreamClient> {
  const controller = new AbortController();
  const query = options.since === undefined ? '' : `?since=${encodeURIComponent(options.since)}`;
  const response = await fetch(`${baseUrl}/api/events${query}`, {
    headers: {
      accept: 'text/event-stream',
      cookie,
      ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  let isEnded = false;
  let isReady = false;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  const parseFrame = (frame: string) => {
    let id: string | undefined;
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
      else if (line.startsWith('retry:')) isReady = true;
    }
    if (data.length > 0) events.push({ id, data: JSON.parse(data.join('\n')) as LiveEvent, at: Date.now() });
  };

  void (async () => {
    if (!response.body) {
      isEnded = true;
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          parseFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        notify();
      }
    } catch {
      // aborted by close()
    }
    isEnded = true;
    notify();
  })();

  const waitUntil = (condition: () => boolean, what: string, timeoutMs = 5_000) =>
    new Promise<void>((resolve, reject) => {
      if (condition()) return resolve();
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve();
      };
      listeners.add(check);
    });

  if (response.ok) await waitUntil(() => isReady || isEnded, 'the stream to be subscribed');

  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events,
    comments,
    ended: () => isEnded,
    waitFor: async (match, timeoutMs) => {
      await waitUntil(() => events.some((event) => match(event.data)), 'an event', timeoutMs);
      const found = events.find((event) => match(event.data));
      if (!found) throw new Error('event vanished');
      return found;
    },
    waitUntil,
    close: () => controller.abort(),
  };
}

/** The base URL of an app listening on a free port of this machine. */
export async function listenOnFreePort(app: {
  listen(options: { port: number; host: string }): Promise<string>;
}): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}
