import type { FastifyRequest } from 'fastify';

/** The sign-in and account pages post forms; the same calls take JSON. */
export function isFormPost(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/** A field as the person typed it, to show the form again with it. */
export function rawField(body: unknown, name: string): string | undefined {
  if (body && typeof body === 'object' && name in body) {
    const value = (body as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}
