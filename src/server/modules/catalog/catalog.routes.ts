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
import { compileSerializer } from '../../platform/compiled-serializer';
import { sendCachedAnswer, signedInReplayKey } from '../../platform/public-cache';
import {
  browseProductsAnswer,
  browseProductsByDistanceAnswer,
  categoriesAnswer,
  getProduct,
  visitorProductAnswer,
  getProductImages,
  placeKeyOf,
  type SerializeList,
} from './catalog.service';

const productListSchema = z.array(productListItemSchema);
const categoryListSchema = z.array(categorySchema);

/**
 * Visitors read products, categories and product images
 * (docs/rules/accounts.md, Roles and permissions); the distance list needs a sign-in.
 */
export function registerCatalogRoutes(app: App, { db, catalogCache, signedInReplays }: AppContext): void {
  // The lists and the visitors' answers are kept as bytes, written by compiled serialisers.
  const serializeList: SerializeList = compileSerializer(productListSchema);
  const serializeCategories = compileSerializer(categoryListSchema);
  const serializeProduct = compileSerializer(productDetailSchema);
  app.get(
    '/api/categories',
    {
      schema: {
        tags: ['catalog'],
        summary: 'All categories, by name',
        response: { 200: categoryListSchema },
      },
    },
    // The same for everyone until a category changes (a notice drops it).
    async (request, reply) =>
      sendCachedAnswer(request, reply, await categoriesAnswer(db, catalogCache, serializeCategories), {
        sameForAll: true,
      }),
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
    // The same for every caller at one place: a repeated call is replayed from memory once the
    // caller is found signed in (docs/decisions/0029-signed-in-reads-kept.md, Answered in the
    // server's listener).
    async (request, reply) => {
      const actor = actorOf(request);
      const answer = await browseProductsByDistanceAnswer(
        db,
        catalogCache,
        actor,
        request.query,
        serializeList,
      );
      return sendCachedAnswer(request, reply, answer, { sameAt: placeKeyOf(actor) });
    },
  );
  signedInReplays.addReplay('/api/products/with-distance', (actor, url, acceptEncoding) =>
    catalogCache.replayOf(signedInReplayKey(placeKeyOf(actor), url), acceptEncoding, false),
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
    async (request, reply) => {
      const actor = await request.getActor();
      // A signed-in viewer sees the distance, and a seller or admin a hidden product: worked out
      // each time. Every visitor sees the same page, kept until the catalog changes.
      if (actor) return getProduct(db, actor, request.params.id);
      const answer = await visitorProductAnswer(db, catalogCache, request.params.id, serializeProduct);
      return sendCachedAnswer(request, reply, answer, { sameForAll: 'visitors' });
    },
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
