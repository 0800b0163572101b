import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { isPublicRoute } from './access';

const SESSION_SECURITY = [{ session: [] }];
/** Uploaded images answer visitors and signed-in users alike (each by who may see the file). */
const OPTIONAL_SESSION_SECURITY = [{}, { session: [] }];
/** Any call can meet a malformed request (bad URL encoding, headers too large) before its handler. */
const MALFORMED_RESPONSE = {
  description: 'A malformed request, answered {message, code, requestId}',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['message', 'code', 'requestId'],
        properties: { message: { type: 'string' }, code: { type: 'string' }, requestId: { type: 'string' } },
      },
    },
  },
};

/** `GET /api/orders/:id/items` -> `getOrdersByIdItems`: stable, unique, readable in a generated client. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `by-${segment.slice(1)}` : segment))
    .flatMap((segment) => segment.split(/[^a-zA-Z0-9]+/))
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return method.toLowerCase() + words.join('');
}

/**
 * The zod schemas as JSON Schema, plus what a generated client needs (docs/decisions/0011-deny-by-default.md):
 * an operationId on every call, and the session cookie on every call the access hook guards, read
 * from the same public list the hook uses, so the document cannot disagree with the server.
 */
export const openApiTransform: SwaggerTransform = (input) => {
  const transformed = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const method = Array.isArray(input.route.method)
    ? String(input.route.method[0])
    : String(input.route.method);
  const schema = (transformed.schema ?? {}) as Record<string, unknown>;
  schema.operationId ??= operationIdOf(method, input.url);
  if (!input.url.startsWith('/api/')) schema.security = OPTIONAL_SESSION_SECURITY;
  else schema.security = isPublicRoute(method, input.url) ? [] : SESSION_SECURITY;
  const responses = (schema.response ?? {}) as Record<string, unknown>;
  if (!Object.keys(responses).some((status) => status.startsWith('4'))) {
    schema.response = { ...responses, '4XX': MALFORMED_RESPONSE };
  }
  return { ...transformed, schema };
};
