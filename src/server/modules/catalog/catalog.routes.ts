import { z } from 'zod';
import { categorySchema } from '../../../domain/categories';
import {
  productDetailSchema,
  productDistanceQuerySchema,
  productImageSchema,
  productListItemSchema,
  productListQuerySchema,
} from '../../../domain/catalog';
import { errorBodySchema } from '../../../domain/errors';
import { idParamsSchema } from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import {
  browseProducts,
  browseProductsByDistance,
  getCategories,
  getProduct,
  getProductImages,
} from './catalog.service';

/**
 * Visitors read products, categories and product images
 * (docs/product-rules.md, Roles and permissions); the distance list needs a sign-in.
 */
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

  app.get(
    '/api/products/with-distance',
    {
      schema: {
        tags: ['catalog'],
        summary:
          'Signed in: available products nearest seller first, then newest, with miles from your primary address; ' +
          'maxDistance 1–500 (500 or absent: any distance; with a limit, products without a distance are left out)',
        security: [{ session: [] }],
        querystring: productDistanceQuerySchema,
        response: { 200: z.array(productListItemSchema), 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => browseProductsByDistance(db, actorOf(request), request.query),
  );

  app.get(
    '/api/products/:id',
    {
      schema: {
        tags: ['catalog'],
        summary: 'One product, available or not, with its seller details and extra images',
        params: idParamsSchema,
        response: { 200: productDetailSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => getProduct(db, await request.getActor(), request.params.id),
  );

  app.get(
    '/api/products/:id/images',
    {
      schema: {
        tags: ['catalog'],
        summary: "A product's extra images in display order (the main image is the product's imageUrl)",
        params: idParamsSchema,
        response: { 200: z.array(productImageSchema), 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => getProductImages(db, request.params.id),
  );
}
