import { z } from 'zod';
import { categorySchema } from '../../../domain/categories';
import { productListItemSchema, productListQuerySchema } from '../../../domain/catalog';
import { errorBodySchema } from '../../../domain/errors';
import type { App, AppContext } from '../../platform/context';
import { browseProducts, getCategories } from './catalog.service';

export function registerCatalogRoutes(app: App, { db }: AppContext): void {
  app.get(
    '/api/categories',
    {
      schema: {
        tags: ['catalog'],
        summary: 'All categories, by name',
        response: { 200: z.array(categorySchema) },
      },
    },
    async () => getCategories(db),
  );

  app.get(
    '/api/products',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Available products, newest first, with search, category and paging',
        querystring: productListQuerySchema,
        response: { 200: z.array(productListItemSchema), 400: errorBodySchema },
      },
    },
    async (request) => browseProducts(db, request.query),
  );
}
