import crypto from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../../domain/errors';
import { replyWithError } from './errors';

/**
 * Failures that happen before the app's hooks run still answer in the one error format, with the
 * security headers (docs/rules/running.md, Bad input and failure): the router's (a URL that is not
 * valid percent-encoding, a path segment over the length limit) and Node's own (headers too large,
 * a malformed request line).
 */
export function createFrameworkErrorHandler(securityHeaders: Record<string, string>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    void replyWithError(error, request, reply.headers(securityHeaders).header('x-request-id', request.id));
  };
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; body: Omit<ErrorBody, 'requestId'> }> =
  {
    HPE_HEADER_OVERFLOW: {
      status: 431,
      reason: 'Request Header Fields Too Large',
      body: { message: 'The request headers are too large', code: 'headers_too_large' },
    },
    ERR_HTTP_REQUEST_TIMEOUT: {
      status: 408,
      reason: 'Request Timeout',
      body: { message: 'The request took too long to arrive', code: 'bad_request' },
    },
  };
const MALFORMED = {
  status: 400,
  reason: 'Bad Request',
  body: { message: 'The request is malformed', code: 'bad_request' },
};

export function createClientErrorHandler(
  securityHeaders: Record<string, string>,
  log: (message: string) => void,
) {
  return (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const known = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED;
    const requestId = crypto.randomUUID();
    const body = JSON.stringify({ ...known.body, requestId } satisfies ErrorBody);
    log(`${known.status} ${known.body.code} ${requestId}`);
    const headers = {
      ...securityHeaders,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      'x-request-id': requestId,
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    if (socket.writable) socket.write(`HTTP/1.1 ${known.status} ${known.reason}\r\n${head}\r\n\r\n${body}`);
    socket.destroy(error);
  };
}
