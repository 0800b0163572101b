import { z } from 'zod';
import {
  addressBodySchema,
  addressPatchBodySchema,
  addressSchema,
  addressValidateBodySchema,
  addressValidationSchema,
  pickupAddressSchema,
  sellerIdParamsSchema,
} from '../../../domain/addresses';
import { errorBodySchema } from '../../../domain/errors';
import { idParamsSchema } from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import {
  createOwnAddress,
  deleteOwnAddress,
  getSellerPickupAddress,
  listOwnAddresses,
  setOwnPrimaryAddress,
  updateOwnAddress,
  validateAddress,
} from './addresses.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

export function registerAddressRoutes(app: App, { db, ops }: AppContext): void {
  app.get(
    '/api/addresses',
    {
      schema: {
        tags: ['addresses'],
        summary: 'Own addresses, primary first, then newest',
        response: { 200: z.array(addressSchema), 401: errorBodySchema },
      },
    },
    async (request) => listOwnAddresses(db, actorOf(request)),
  );

  app.post(
    '/api/addresses',
    {
      schema: {
        tags: ['addresses'],
        summary:
          'Add an address: coordinates from the geocoder when the ZIP is known; verified only with the validationToken of a validation of exactly these fields; the first one is primary',
        body: addressBodySchema,
        response: { 201: addressSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const address = await createOwnAddress(ops.addresses(request.log), actor, request.body);
      return reply.status(201).send(address);
    },
  );

  app.post(
    '/api/addresses/validate',
    {
      schema: {
        tags: ['addresses'],
        summary:
          "Normalise an address and locate it; status 'unavailable' when the ZIP is unknown; a verified answer carries the validationToken that saving these fields sends back",
        body: addressValidateBodySchema,
        response: { 200: addressValidationSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      return validateAddress(ops.addresses(request.log), actorOf(request), request.body);
    },
  );

  app.patch(
    '/api/addresses/:id',
    {
      schema: {
        tags: ['addresses'],
        summary:
          'Edit own address; a changed address is located again and verified only with a validationToken for its new fields',
        params: idParamsSchema,
        body: addressPatchBodySchema,
        response: { 200: addressSchema, ...errors },
      },
    },
    async (request) =>
      updateOwnAddress(ops.addresses(request.log), actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/addresses/:id',
    {
      schema: {
        tags: ['addresses'],
        summary: 'Delete own address; deleting the primary makes the newest remaining one primary',
        params: idParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      await deleteOwnAddress(db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/addresses/:id/set-primary',
    {
      schema: {
        tags: ['addresses'],
        summary: 'Make own address the primary one (exactly one primary at any time)',
        params: idParamsSchema,
        response: { 200: addressSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => setOwnPrimaryAddress(db, actorOf(request), request.params.id),
  );

  app.get(
    '/api/addresses/primary/:sellerId',
    {
      schema: {
        tags: ['addresses'],
        summary: "A seller's pickup address (their primary address), for checkout",
        params: sellerIdParamsSchema,
        response: { 200: pickupAddressSchema, ...errors },
      },
    },
    async (request) => {
      return getSellerPickupAddress(db, request.params.sellerId);
    },
  );
}
