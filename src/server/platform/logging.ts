import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { serializeErrorForLog } from './errors';

/**
 * The request log names the path, never the query string: searches, emails in sign-in links and
 * presigned signatures are what people typed or secrets (docs/rules/running.md, Bad input and failure).
 */
function serializeRequestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.split('?')[0],
    remoteAddress: request.ip,
  };
}

export function withPrivateLogging(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const base = typeof logger === 'object' ? logger : {};
  return {
    ...base,
    serializers: { req: serializeRequestForLog, err: serializeErrorForLog },
  } as FastifyServerOptions['logger'];
}
