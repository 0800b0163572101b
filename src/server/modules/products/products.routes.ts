import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  createProductBodySchema,
  productImageBodySchema,
  productImagesBodySchema,
  productMainImageBodySchema,
  productVisibilityBodySchema,
  sellerProductSchema,
  updateProductBodySchema,
  NOTHING_TO_CHANGE_MESSAGE,
  UNKNOWN_CATEGORY_MESSAGE,
} from '../../../domain/listings';
import { idParamsSchema } from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { refusedWith } from '../../platform/openapi';
import { addProductImage, arrangeProductImages, setProductMainImage } from './product-images.service';
import {
  cancelProduct,
  createProduct,
  listOwnProducts,
  setProductVisibility,
  updateProduct,
} from './products.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const changeErrors = { ...errors, 409: errorBodySchema };
const imageErrors = { ...changeErrors, 413: errorBodySchema };

/**
 * A seller's listings (docs/rules/selling.md, Seller listings). Creating needs the seller (or admin)
 * role; changing a product needs to be its seller or an admin, and anyone else is told it does not
 * exist (404), so these calls declare no role.
 */
export function registerProductRoutes(app: App, { db, ops }: AppContext): void {
  const deps = ops.products;
  const sellerOnly = { roles: ['seller', 'admin'] as const };

  app.get(
    '/api/seller/products',
    {
      config: sellerOnly,
      schema: {
        tags: ['seller'],
        summary: "The caller's own products in every status (Active, Out of Stock, Cancelled), newest first",
        response: { 200: z.array(sellerProductSchema), 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => listOwnProducts(db, actorOf(request)),
  );

  app.post(
    '/api/products',
    {
      config: sellerOnly,
      schema: {
        tags: ['seller'],
        summary:
          'List a product: the seller is the caller; the category must exist; price and fee with 2 decimals; stock ≥ 0',
        body: createProductBodySchema,
        response: { 201: sellerProductSchema, ...errors, 400: refusedWith([UNKNOWN_CATEGORY_MESSAGE]) },
      },
    },
    async (request, reply) => {
      const product = await createProduct(deps, actorOf(request), request.body);
      return reply.status(201).send(product);
    },
  );

  app.patch(
    '/api/products/:id',
    {
      schema: {
        tags: ['seller'],
        summary:
          'Its seller or an admin: change name, description, price, stock, category or delivery options (orders keep their prices)',
        params: idParamsSchema,
        body: updateProductBodySchema,
        response: {
          200: sellerProductSchema,
          ...changeErrors,
          400: refusedWith([UNKNOWN_CATEGORY_MESSAGE, NOTHING_TO_CHANGE_MESSAGE]),
        },
      },
    },
    async (request) => updateProduct(deps, actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/products/:id',
    {
      schema: {
        tags: ['seller'],
        summary:
          'Its seller or an admin: cancel the product (no longer available, irreversible; the row stays for its orders)',
        params: idParamsSchema,
        response: { 200: sellerProductSchema, ...changeErrors },
      },
    },
    async (request) => cancelProduct(deps, actorOf(request), request.params.id),
  );

  app.put(
    '/api/products/:id/image',
    {
      schema: {
        tags: ['seller'],
        summary: "Its seller or an admin: set the main image to one of the caller's finished uploads",
        params: idParamsSchema,
        body: productMainImageBodySchema,
        response: { 200: sellerProductSchema, ...imageErrors },
      },
    },
    async (request) => setProductMainImage(deps, actorOf(request), request.params.id, request.body.imageUrl),
  );

  app.post(
    '/api/products/:id/images',
    {
      schema: {
        tags: ['seller'],
        summary: 'Its seller or an admin: add an image (at most 10 a product, the main one included)',
        params: idParamsSchema,
        body: productImageBodySchema,
        response: { 201: sellerProductSchema, ...imageErrors },
      },
    },
    async (request, reply) => {
      const product = await addProductImage(deps, actorOf(request), request.params.id, request.body);
      return reply.status(201).send(product);
    },
  );

  app.put(
    '/api/products/:id/images',
    {
      schema: {
        tags: ['seller'],
        summary:
          'Its seller or an admin: all the images in order, the first is the main one; one left out is removed, a new upload is claimed',
        params: idParamsSchema,
        body: productImagesBodySchema,
        response: { 200: sellerProductSchema, ...imageErrors },
      },
    },
    async (request) =>
      arrangeProductImages(deps, actorOf(request), request.params.id, request.body.imageUrls),
  );

  app.patch(
    '/api/admin/products/:id/visibility',
    {
      config: { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' },
      schema: {
        tags: ['admin'],
        summary:
          'Admin: hide a product from the catalog, its page and checkouts (its seller and admins still see it), or show it again',
        params: idParamsSchema,
        body: productVisibilityBodySchema,
        response: { 200: sellerProductSchema, ...errors },
      },
    },
    async (request) => setProductVisibility(deps, actorOf(request), request.params.id, request.body.hidden),
  );
}
