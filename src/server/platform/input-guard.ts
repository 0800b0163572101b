import type { FastifyInstance } from 'fastify';
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../../domain/text';
import { AppError } from './errors';

/**
 * Every request's body, query and path parameters are checked for text the database cannot store
 * (a NUL, an unpaired surrogate) before any schema or handler sees them: one check for every route,
 * new ones included (docs/product-rules.md, Bad input and failure).
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [where, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const field = findUnstorableText(value);
      if (field !== undefined) {
        const name = where === 'body' ? field : `${where}.${field}`;
        throw new AppError('bad_request', `Invalid request. ${name}: ${UNSTORABLE_TEXT_MESSAGE}`, {
          [name]: UNSTORABLE_TEXT_MESSAGE,
        });
      }
    }
  });
}
