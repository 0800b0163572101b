import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Answers on the wire (docs/decisions/0014-first-load.md): a JSON or HTML answer of at least
 * 1 KB goes out compressed with brotli or gzip when the request accepts it, plain otherwise.
 * Built files are compressed once at build time and served by @fastify/static instead; streamed
 * answers (files, the live event stream) are never touched here, and neither is a HEAD, a 204 or
 * a 304, nor an answer that already has an encoding.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/** Text worth compressing; `text/event-stream` is a stream that must reach the client at once. */
const COMPRESSIBLE_TYPE =
  /^(?:application\/(?:[\w.-]+\+)?json|text\/(?:html|plain|css|javascript)|image\/svg\+xml)\b/i;

/**
 * The encoding to answer in, by the request's Accept-Encoding (RFC 9110 §12.5.3): brotli before
 * gzip at equal weight, nothing that is refused with q=0, `*` standing for both.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return undefined;
}

const brotliCompress = promisify(zlib.brotliCompress);
const gzipCompress = promisify(zlib.gzip);

/**
 * Compressed off the event loop (zlib's thread pool). Brotli at quality 5: close to its best ratio
 * on JSON at a small part of the time quality 11 takes, which only build-time copies can afford.
 */
export function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotliCompress(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipCompress(body, { level: 6 });
}

/** Adds `accept-encoding` to Vary, keeping what is there. */
function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const tokens = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
  if (tokens.some((token) => token === '*' || token.toLowerCase() === 'accept-encoding')) return;
  void reply.header('vary', [...tokens, 'Accept-Encoding'].join(', '));
}

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'HEAD') return payload;
    const status = reply.statusCode;
    if (status < 200 || status === 204 || status === 304) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    // Streams (files, the event stream) and empty answers go as they are.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!COMPRESSIBLE_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < COMPRESSION_THRESHOLD_BYTES) return payload;

    // From here the bytes depend on the request's Accept-Encoding, whichever way it goes.
    varyOnAcceptEncoding(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const compressed = await compress(body, encoding);
    void reply.header('content-encoding', encoding);
    void reply.header('content-length', compressed.length);
    // One representation per encoding: a strong validator of the plain bytes becomes weak
    // (RFC 9110 §8.8.1); If-None-Match compares weakly, so a revalidation still matches.
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && etag.startsWith('"')) void reply.header('etag', `W/${etag}`);
    return compressed;
  });
}
