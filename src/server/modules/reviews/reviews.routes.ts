import { errorBodySchema } from '../../../domain/errors';
import { idParamsSchema } from '../../../domain/users';
import {
  orderReviewSchema,
  orderReviewsSchema,
  reviewBodySchema,
  userReviewsQuerySchema,
  userReviewsSchema,
} from '../../../domain/reviews';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { compileSerializer } from '../../platform/compiled-serializer';
import { sendCachedAnswer } from '../../platform/public-cache';
import { getOrderReviews } from './get-order-reviews';
import { getUserReviews } from './get-user-reviews';
import { postReview } from './post-review';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** Reviews (docs/rules/selling.md, Reviews and messages). */
export function registerReviewRoutes(app: App, { db, catalogCache }: AppContext): void {
  const serializeUserReviews = compileSerializer(userReviewsSchema);
  app.post(
    '/api/reviews',
    {
      schema: {
        tags: ['reviews'],
        summary:
          'Review another party of a delivered or completed order: buyer and seller, buyer and driver, seller and driver; once per order and person; rating a whole number 1 to 5',
        body: reviewBodySchema,
        response: {
          201: orderReviewSchema,
          ...errors,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => reply.status(201).send(await postReview(db, actorOf(request), request.body)),
  );

  app.get(
    '/api/reviews/user/:id',
    {
      schema: {
        tags: ['reviews'],
        summary:
          "A user's average rating (one decimal), number of reviews and newest reviews; as= narrows them to one capacity",
        params: idParamsSchema,
        querystring: userReviewsQuerySchema,
        response: { 200: userReviewsSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    // The same for everyone until a review or a reviewer's name changes (a notice drops it).
    async (request, reply) =>
      sendCachedAnswer(
        request,
        reply,
        await catalogCache.answer(`reviews ${request.params.id} ${request.query.as ?? ''}`, async () =>
          serializeUserReviews(await getUserReviews(db, request.params.id, request.query.as)),
        ),
        { sameForAll: true },
      ),
  );

  app.get(
    '/api/reviews/order/:id',
    {
      schema: {
        tags: ['reviews'],
        summary:
          "An order's reviews and whom the caller may still review on it (404 for anyone who may not see the order)",
        params: idParamsSchema,
        response: { 200: orderReviewsSchema, ...errors },
      },
    },
    async (request) => getOrderReviews(db, actorOf(request), request.params.id),
  );
}
