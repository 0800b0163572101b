import { IncomingMessage } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { KeptPrivateReads } from './kept-private-reads';
import { keptReadsServer } from './public-cache';
import type { Actor } from './sessions';
import { SignedInReplays } from './signed-in-replays';

/**
 * The server's listener answers a signed-in read from what is kept, and hands everything else to
 * the app (docs/decisions/0029-signed-in-reads-kept.md, Answered in the server's listener). The
 * database is played by the test: its notices, and on "PostgreSQL" the fences it answers.
 */
// The cookie plugin as the app registers it, for its parsing and signing.
const cookieApp = Fastify();
await cookieApp.register(fastifyCookie, { secret: 'a secret of the test, long enough to sign cookies' });
await cookieApp.ready();
const cookies = {
  parse: (header: string) => cookieApp.parseCookie(header),
  unsign: (raw: string) => cookieApp.unsignCookie(raw),
};
const cookieOf = (sid: string) => `theme=dark; sid=${encodeURIComponent(cookieApp.signCookie(sid))}`;
const HOUR = 60 * 60 * 1000;

async function listening(withFences: boolean) {
  let notify: (table: string) => void = () => {};
  const fences: ((heard: boolean) => void)[] = [];
  const stop = Object.assign(async () => {}, {
    fence: withFences ? () => new Promise<boolean>((resolve) => fences.push(resolve)) : undefined,
  });
  const kept = new KeptPrivateReads(
    {
      listen: async (_channel, handlers) => {
        notify = (table) => handlers.onNotify(table);
        return stop;
      },
    },
    { warn: () => {} },
  );
  await kept.start();
  const replays = new SignedInReplays(kept, cookies, { error: () => {} });
  replays.add('/broken', () => {
    throw new Error('a broken answer');
  });
  replays.add('/me', (actor) =>
    actor.firstName === 'Declined' ? undefined : Buffer.from(`"${actor.firstName}"`),
  );
  const handled: string[] = [];
  const server = keptReadsServer(
    () => ({ signedIn: replays }),
    () => 'an-id',
  )((request, response) => {
    handled.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('from the app');
  }, {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keep = (sid: string, firstName: string, expire = Date.now() + 7 * 24 * HOUR) =>
    kept.load('sessions', `session ${sid}`, async () => ({
      value: { firstName } as Actor,
      expire,
    }));
  return {
    replays,
    handled,
    base,
    keep,
    notice: (table: string) => notify(table),
    fences,
    get: async (url: string, headers: Record<string, string> = {}) =>
      (await fetch(base + url, { headers })).text(),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("signed-in reads answered in the server's listener", () => {
  it('writes a kept user with the recorded head, and hands the app every other request', async () => {
    const s = await listening(false);
    try {
      await s.keep('s1', 'Kept');
      await s.keep('due', 'Due', Date.now() + 6 * 24 * HOUR);
      await s.keep('declined', 'Declined');
      // Nothing recorded yet: the full path answers first.
      expect(await s.get('/me', { cookie: cookieOf('s1') })).toBe('from the app');
      s.replays.record(new IncomingMessage(new Socket()), '/me', {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'x-request-id': 'x',
      });
      const response = await fetch(`${s.base}/me`, { headers: { cookie: cookieOf('s1') } });
      expect(await response.text()).toBe('"Kept"');
      expect(response.headers.get('x-request-id')).toBe('an-id');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-length')).toBe('6');
      expect(s.handled).toEqual(['GET /me']);

      for (const [url, headers] of [
        ['/me', {}],
        ['/me', { cookie: 'sid=s1' }],
        ['/me', { cookie: cookieOf('s1').replace(/\.[^.]+$/, '.forged') }],
        ['/me', { cookie: cookieOf('unknown') }],
        ['/me', { cookie: cookieOf('due') }],
        ['/me', { cookie: cookieOf('declined') }],
        ['/me', { cookie: cookieOf('s1'), 'if-none-match': '"x"' }],
        ['/me?x=1', { cookie: cookieOf('s1') }],
        ['/other', { cookie: cookieOf('s1') }],
      ] as const) {
        expect(await s.get(url, headers), `${url} ${JSON.stringify(headers)}`).toBe('from the app');
      }
      // A notice of the user's table drops it: the app answers.
      s.notice('users');
      expect(await s.get('/me', { cookie: cookieOf('s1') })).toBe('from the app');
      await s.keep('s1', 'Again');
      expect(await s.get('/me', { cookie: cookieOf('s1') })).toBe('"Again"');
      // An answer that fails is the app's to give.
      s.replays.record(new IncomingMessage(new Socket()), '/broken', { 'content-type': 'application/json' });
      expect(await s.get('/broken', { cookie: cookieOf('s1') })).toBe('from the app');
      // A closing instance takes every request through the app.
      s.replays.stop();
      expect(await s.get('/me', { cookie: cookieOf('s1') })).toBe('from the app');
    } finally {
      await s.close();
    }
  });

  it('waits for the fence on PostgreSQL, and hands over a request whose fence fails or whose user went meanwhile', async () => {
    const s = await listening(true);
    try {
      await s.keep('s1', 'Kept');
      s.replays.record(new IncomingMessage(new Socket()), '/me', { 'content-type': 'application/json' });
      const until = async (count: number) => {
        while (s.fences.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
      };
      let answer = s.get('/me', { cookie: cookieOf('s1') });
      await until(1);
      s.fences[0]?.(true);
      expect(await answer).toBe('"Kept"');

      answer = s.get('/me', { cookie: cookieOf('s1') });
      await until(2);
      s.fences[1]?.(false);
      expect(await answer).toBe('from the app');

      // Another instance changed the user: its notice arrives before the fence is heard.
      answer = s.get('/me', { cookie: cookieOf('s1') });
      await until(3);
      s.notice('sessions');
      s.fences[2]?.(true);
      expect(await answer).toBe('from the app');
      // A caller it would not answer waits for no fence.
      await s.keep('declined', 'Declined');
      expect(await s.get('/me', { cookie: cookieOf('declined') })).toBe('from the app');
      expect(s.fences).toHaveLength(3);
      expect(s.handled).toEqual(['GET /me', 'GET /me', 'GET /me']);
    } finally {
      await s.close();
    }
  });
});
