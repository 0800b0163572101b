import fastJson from 'fast-json-stringify';
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
import { sendCachedAnswer } from '../../platform/public-cache';
import {
  browseProductsAnswer,
  browseProductsByDistanceAnswer,
  getCategories,
  getProduct,
  getProductImages,
  type SerializeList,
} from './catalog.service';

const productListSchema = z.array(productListItemSchema);

/**
 * The lists' answers are written by a serialiser compiled from their response schema
 * (fast-json-stringify): only the schema's fields go out, at about a third of the cost of checking
 * every item against the zod schema first (docs/decisions/0015-catalog-and-checkout-throughput.md).
 */
function compileListSerializer(): SerializeList {
  const stringify = fastJson(
    // The JSON Schema of the zod schema, as the OpenAPI document shows it.
    z.toJSONSchema(productListSchema, { io: 'output' }) as Parameters<typeof fastJson>[0],
  );
  return (items) => Buffer.from(stringify(items));
}

/**
 * Visitors read products, categories and product images
 * (docs/product-rules.md, Roles and permissions); the distance list needs a sign-in.
 */
export function registerCatalogRoutes(app: App, { db, catalogCache }: AppContext): void {
  const serializeList = compileListSerializer();
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
        response: { 200: productListSchema, 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const answer = await browseProductsAnswer(db, catalogCache, request.query, serializeList);
      // Anyone may keep it, and asks again each time (If-None-Match): stock changes by the minute.
      void reply.header('cache-control', 'no-cache');
      // The same for every caller of this URL: a repeated call is replayed from memory.
      return sendCachedAnswer(request, reply, answer, { sameForAll: true });
    },
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
        response: { 200: productListSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request, reply) =>
      sendCachedAnswer(
        request,
        reply,
        await browseProductsByDistanceAnswer(
          db,
          catalogCache,
          actorOf(request),
          request.query,
          serializeList,
        ),
      ),
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
