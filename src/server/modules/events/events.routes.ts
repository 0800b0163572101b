import type { OutgoingHttpHeaders } from 'node:http';
import {
  LIVE_HEARTBEAT_MS,
  LIVE_RETRY_MS,
  eventsQuerySchema,
  lastEventIdSchema,
} from '../../../domain/live-events';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { eventStream } from '../../platform/openapi';
import { sseFrame } from '../../platform/live-event-hub';
import { findSessionUser } from './events.queries';

/** The id of the last event a reconnecting browser received; anything else means none. */
function lastEventIdOf(header: string | string[] | undefined): number | null {
  const parsed = lastEventIdSchema.safeParse(Array.isArray(header) ? header[0] : header);
  return parsed.success ? Number(parsed.data) : null;
}

function acceptsEventStream(accept: string | undefined): boolean {
  return accept?.includes('text/event-stream') ?? false;
}

const EVENT_STREAM = 'text/event-stream; charset=utf-8';

/**
 * GET /api/events (docs/rules/live-updates.md, Live updates): a server-sent event stream for the
 * signed-in user. It starts with the events missed since `Last-Event-ID` (a reconnect), or, on a
 * page's first connection, since the live cursor the page read with its data (`?since=`), then sends
 * each new one the access policy lets this user receive, with a heartbeat comment every 25 s. The
 * session is checked again at each heartbeat: once it is gone (signed out, expired) the stream ends.
 *
 * A caller that does not ask for `text/event-stream` (a plain request, an injected test request
 * without a socket) gets what it missed at once and the answer ends.
 */
export function registerEventRoutes(app: App, ctx: AppContext, options: { heartbeatMs?: number } = {}): void {
  const heartbeatMs = options.heartbeatMs ?? LIVE_HEARTBEAT_MS;
  const openStreams = new Set<() => void>();
  // Streams never end by themselves: they are ended before the server waits for its connections.
  app.addHook('preClose', async () => {
    for (const end of [...openStreams]) end();
  });

  app.get(
    '/api/events',
    {
      schema: {
        tags: ['events'],
        summary:
          "Server-sent events for the signed-in user: their orders' changes, new messages for them, new available orders for verified drivers; resumes after Last-Event-ID, or after `since` (the liveCursor of GET /api/auth/user) on a page's first connection",
        querystring: eventsQuerySchema,
        response: {
          200: eventStream('`retry:`, then `id:` and `data:` (a JSON event) per event'),
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      // A reconnect's Last-Event-ID is newer than the page's cursor: what came after it was sent.
      const since = request.query.since === undefined ? null : Number(request.query.since);
      const afterId = lastEventIdOf(request.headers['last-event-id']) ?? since;
      if (request.method === 'HEAD' || !acceptsEventStream(request.headers.accept)) {
        const missed = afterId === null ? [] : await ctx.live.backlog(actor, afterId);
        return reply
          .type(EVENT_STREAM)
          .header('cache-control', 'no-store')
          .send(`retry: ${LIVE_RETRY_MS}\n\n${missed.map(sseFrame).join('')}`);
      }

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': EVENT_STREAM,
        'cache-control': 'no-store',
        connection: 'keep-alive',
        // Proxies such as nginx would otherwise hold events back in their buffers.
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });

      let ended = false;
      let unsubscribe = () => {};
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        openStreams.delete(end);
        raw.end();
      };
      const beat = async () => {
        const sid = request.sessionId;
        let user;
        try {
          user = sid ? await findSessionUser(ctx.db, sid, new Date()) : undefined;
        } catch {
          // The database is unreachable for a moment: keep the stream, check at the next beat.
          if (!ended) raw.write(': heartbeat\n\n');
          return;
        }
        if (!user || user.id !== actor.id) end();
        else if (!ended) raw.write(': heartbeat\n\n');
      };
      const heartbeat = setInterval(() => void beat(), heartbeatMs);
      heartbeat.unref();
      openStreams.add(end);
      // The response closes when the browser goes away (a request "closes" once it has been read).
      raw.on('close', end);
      raw.on('error', end);

      try {
        const close = await ctx.live.subscribe(
          actor,
          afterId,
          (frame) => {
            if (!ended) raw.write(frame);
          },
          { sessionId: request.sessionId, end },
        );
        if (ended) close();
        else {
          unsubscribe = close;
          // Sent once the stream is subscribed: from here on no event for this user is missed.
          raw.write(`retry: ${LIVE_RETRY_MS}\n\n`);
        }
      } catch (error) {
        request.log.error({ err: error }, 'event stream could not start');
        end();
      }
    },
  );
}
