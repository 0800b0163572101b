import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import { AppError } from '../../platform/errors';
import type { App } from '../../platform/context';

export function registerHealthRoutes(app: App, ping: () => Promise<void>): void {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Answers 200 when the database is reachable',
        response: { 200: z.object({ status: z.literal('ok') }), 503: errorBodySchema },
      },
    },
    async (request) => {
      try {
        await ping();
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        throw new AppError('unavailable', 'The database is unreachable');
      }
      return { status: 'ok' as const };
    },
  );
}
