import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../domain/errors';
import { isPublicRoute } from './access';

const SESSION_SECURITY = [{ session: [] }];
/** Uploaded images answer visitors and signed-in users alike (each by who may see the file). */
const OPTIONAL_SESSION_SECURITY = [{}, { session: [] }];
const ERROR_BODY = {
  type: 'object',
  required: ['message', 'code', 'requestId'],
  properties: {
    message: { type: 'string' },
    code: { type: 'string' },
    requestId: { type: 'string' },
    fields: { type: 'object', additionalProperties: { type: 'string' } },
  },
  additionalProperties: false,
};
const errorAnswer = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  content: { 'application/json': { schema: ERROR_BODY } },
  ...extra,
});

/** The 400 any call can meet; a route that refuses more declares its own 400 with a description. */
export const GENERIC_BAD_REQUEST =
  'A malformed request (bad URL encoding, invalid JSON, text the database cannot store) or one its schema refuses: a message per field in `fields`';

/**
 * The answers any call can give whatever its handler does (docs/ARCHITECTURE.md, Requests and
 * errors), declared here once so that a route declares only its own: the statuses the platform's
 * hooks and the error handler send before or around it.
 */
function commonResponses(
  method: string,
  url: string,
  schema: Record<string, unknown>,
  isGuarded: boolean,
): Record<string, unknown> {
  const writes = !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
  const hasParams = url.includes(':');
  return {
    400: errorAnswer(GENERIC_BAD_REQUEST),
    ...(isGuarded ? { 401: errorAnswer('Not signed in, or the session has ended') } : {}),
    ...(isGuarded || writes
      ? {
          403: errorAnswer(
            'Refused: a role the caller lacks, a suspended account, or a state-changing request from another site',
          ),
        }
      : {}),
    ...(hasParams ? { 404: errorAnswer('Nothing with this id, or nothing the caller may see') } : {}),
    ...(schema.body
      ? {
          413: errorAnswer('The request body is larger than the limit'),
          415: errorAnswer('The request body is not of a content type the call takes'),
        }
      : {}),
    ...(hasParams ? { 414: errorAnswer('A part of the address is too long') } : {}),
    431: errorAnswer('The request headers are too large'),
    500: errorAnswer('An unexpected fault, logged with the request id; no details are given'),
    503: errorAnswer(
      'The database or a provider is briefly unavailable (a restart, a failover, a timeout): try again after Retry-After seconds',
      {
        headers: {
          'retry-after': { type: 'integer', description: 'Seconds to wait before trying again' },
        },
      },
    ),
  };
}

/** A page of the server (the sign-in and account pages), for a route's `response`. */
export const htmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() } },
});

/** A download of comma-separated values (the admin's exports). */
export const csvFile = (description: string) => ({
  description,
  content: { 'text/csv': { schema: z.string() } },
});

/** A server-sent event stream (`GET /api/events`). */
export const eventStream = (description: string) => ({
  description,
  content: { 'text/event-stream': { schema: z.string() } },
});

/** An answer with no body: a redirect (its Location) or 204. */
export const noBody = (description: string) => z.null().describe(description);

/**
 * The calls that take a form or JSON (the sign-in and account pages post forms): JSON gets `json`,
 * a form gets the page again with the problem.
 */
export const jsonOrPage = (description: string, json: z.core.$ZodType) => ({
  description,
  content: { 'application/json': { schema: json }, 'text/html': { schema: z.string() } },
});

/** The words that open the description of a 400 a route declares for rules its schema cannot hold. */
export const REFUSAL_PREFIX = 'Refused by a rule the schema cannot express';

/**
 * A route's 400 for rules its request schema cannot express (a field that needs another, a value
 * that must exist in the database): the document names each message it can answer
 * (docs/ARCHITECTURE.md, Requests and errors), which the positive-data pass holds it to.
 */
export const refusedWith = (messages: readonly string[], options: { html?: boolean } = {}) => ({
  description: `${REFUSAL_PREFIX} (or a malformed request): ${messages.map((message) => `"${message}"`).join('; ')}`,
  content: {
    'application/json': { schema: errorBodySchema },
    ...(options.html ? { 'text/html': { schema: z.string() } } : {}),
  },
});

/**
 * OpenAPI 3.0 lets `nullable` add null to a type, but not to an `enum`, which must then list null
 * itself; zod's output leaves it out, so a validator reading the document refuses a null.
 */
function nullInNullableEnums(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const item of schema) nullInNullableEnums(item);
    return;
  }
  const object = schema as Record<string, unknown>;
  if (object.nullable === true && Array.isArray(object.enum) && !object.enum.includes(null)) {
    object.enum = [...(object.enum as unknown[]), null];
  }
  for (const value of Object.values(object)) nullInNullableEnums(value);
}

/** zod's `z.null()` (`enum: [null]`): an answer without a body, so the document declares no content. */
function isNoBody(schema: unknown): boolean {
  const object = schema as { enum?: unknown[] } | undefined;
  return Array.isArray(object?.enum) && object.enum.length === 1 && object.enum[0] === null;
}

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
 * The zod schemas as JSON Schema, plus what a generated client needs
 * (docs/decisions/0011-deny-by-default.md): an operationId on every call, and the session cookie on every
 * call the access hook guards, read from the same public list the hook uses, so the document cannot disagree
 * with the server.
 */
export const openApiTransform: SwaggerTransform = (input) => {
  const transformed = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const method = Array.isArray(input.route.method)
    ? String(input.route.method[0])
    : String(input.route.method);
  const schema = (transformed.schema ?? {}) as Record<string, unknown>;
  schema.operationId ??= operationIdOf(method, input.url);
  const isGuarded = input.url.startsWith('/api/') && !isPublicRoute(method, input.url);
  if (!input.url.startsWith('/api/')) schema.security = OPTIONAL_SESSION_SECURITY;
  else schema.security = isGuarded ? SESSION_SECURITY : [];
  // The route's own answers win over the common ones of the same status, keeping their description.
  const common = commonResponses(method, input.url, schema, isGuarded) as Record<
    string,
    { description: string; headers?: unknown }
  >;
  const own = (schema.response ?? {}) as Record<string, Record<string, unknown>>;
  for (const [status, answer] of Object.entries(own)) {
    if (isNoBody(answer)) {
      own[status] = { type: 'null', description: answer.description ?? 'No body' };
      continue;
    }
    if (!answer.description && common[status]) answer.description = common[status].description;
    // A route's own 503 still comes with Retry-After.
    if (!answer.headers && common[status]?.headers) answer.headers = common[status].headers;
  }
  schema.response = { ...common, ...own };
  nullInNullableEnums(schema);
  return { ...transformed, schema };
};
