import fastJson from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * Writes a route's answer as bytes with a serialiser compiled from its response schema
 * (fast-json-stringify): only the schema's fields go out, at about a third of the cost of checking
 * the answer against the zod schema first (docs/decisions/0015-catalog-and-checkout-throughput.md).
 * For answers that are kept (public-cache.ts), which are sent as bytes.
 */
export function compileSerializer<T extends z.ZodType>(schema: T): (value: z.output<T>) => Buffer {
  const stringify = fastJson(
    // The JSON Schema of the zod schema, as the OpenAPI document shows it.
    z.toJSONSchema(schema, { io: 'output' }) as Parameters<typeof fastJson>[0],
  );
  return (value) => Buffer.from(stringify(value));
}

/** Sends bytes a compiled serialiser wrote, as JSON (Fastify sends a Buffer as it is). */
export function sendJsonBytes(reply: FastifyReply, body: Buffer) {
  return reply.type('application/json; charset=utf-8').send(body);
}
