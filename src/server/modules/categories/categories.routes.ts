import { z } from 'zod';
import { categoryBodySchema } from '../../../domain/admin';
import { categorySchema } from '../../../domain/categories';
import { errorBodySchema } from '../../../domain/errors';
import { idParamsSchema } from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { createCategory, removeCategory, updateCategory } from './categories.service';

/** Admins only (docs/rules/known-differences.md, Admin); reading the list is public (GET /api/categories, catalog). */
const ADMIN_ONLY = {
  roles: ['admin'],
  forbiddenMessage: 'You must be an admin to manage categories',
} as const;

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
};

export function registerCategoryRoutes(app: App, { db, now }: AppContext): void {
  app.post(
    '/api/categories',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['catalog'],
        summary:
          'Admin: add a category (name trimmed, not empty, unlike any other whatever its case or look-alike letters)',
        body: categoryBodySchema,
        response: { 201: categorySchema, ...errors },
      },
    },
    async (request, reply) => {
      const category = await createCategory(db, actorOf(request), request.body.name, now());
      return reply.status(201).send(category);
    },
  );

  app.patch(
    '/api/categories/:id',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['catalog'],
        summary: 'Admin: rename a category, and its products with it',
        params: idParamsSchema,
        body: categoryBodySchema,
        response: { 200: categorySchema, ...errors, 404: errorBodySchema },
      },
    },
    async (request) => updateCategory(db, actorOf(request), request.params.id, request.body.name, now()),
  );

  app.delete(
    '/api/categories/:id',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['catalog'],
        summary: 'Admin: delete a category no product uses (409 saying how many use it otherwise)',
        params: idParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...errors, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      await removeCategory(db, actorOf(request), request.params.id, now());
      return reply.status(204).send(null);
    },
  );
}
