import type { FastifyInstance } from 'fastify';
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../../domain/text';
import { AppError } from './errors';

/**
 * Every request's body, query and path parameters are checked for text the database cannot store
 * (a NUL, an unpaired surrogate) before any schema or handler sees them: one check for every route,
 * new ones included (docs/rules/running.md, Bad input and failure).
 */
export function registerInputGuard(app: FastifyInstance): void {
  // A plain callback: it runs on every request and awaits nothing.
  app.addHook('preValidation', (request, _reply, done) => {
    done(
      unstorableTextError('params', request.params) ??
        unstorableTextError('query', request.query) ??
        unstorableTextError('body', request.body),
    );
  });
}

function unstorableTextError(where: 'params' | 'query' | 'body', value: unknown): AppError | undefined {
  const field = findUnstorableText(value);
  if (field === undefined) return undefined;
  const name = where === 'body' ? field : `${where}.${field}`;
  return new AppError('bad_request', `Invalid request. ${name}: ${UNSTORABLE_TEXT_MESSAGE}`, {
    [name]: UNSTORABLE_TEXT_MESSAGE,
  });
}
