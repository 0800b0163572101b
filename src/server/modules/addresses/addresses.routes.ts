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
import { requireActor } from '../../platform/auth-guard';
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

export function registerAddressRoutes(app: App, { db, geocoder }: AppContext): void {
  app.get(
    '/api/addresses',
    {
      schema: {
        tags: ['addresses'],
        summary: 'Own addresses, primary first, then newest',
        response: { 200: z.array(addressSchema), 401: errorBodySchema },
      },
    },
    async (request) => listOwnAddresses(db, await requireActor(request)),
  );

  app.post(
    '/api/addresses',
    {
      schema: {
        tags: ['addresses'],
        summary:
          'Add an address: coordinates from the geocoder when the ZIP is known; the first one is primary',
        body: addressBodySchema,
        response: { 201: addressSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const actor = await requireActor(request);
      const address = await createOwnAddress({ db, geocoder, log: request.log }, actor, request.body);
      return reply.status(201).send(address);
    },
  );

  app.post(
    '/api/addresses/validate',
    {
      schema: {
        tags: ['addresses'],
        summary: "Normalise an address and locate it; status 'unavailable' when the ZIP is unknown",
        body: addressValidateBodySchema,
        response: { 200: addressValidationSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      await requireActor(request);
      return validateAddress({ geocoder, log: request.log }, request.body);
    },
  );

  app.patch(
    '/api/addresses/:id',
    {
      schema: {
        tags: ['addresses'],
        summary: 'Edit own address; a changed address is located again',
        params: idParamsSchema,
        body: addressPatchBodySchema,
        response: { 200: addressSchema, ...errors },
      },
    },
    async (request) =>
      updateOwnAddress(
        { db, geocoder, log: request.log },
        await requireActor(request),
        request.params.id,
        request.body,
      ),
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
      await deleteOwnAddress(db, await requireActor(request), request.params.id);
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
    async (request) => setOwnPrimaryAddress(db, await requireActor(request), request.params.id),
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
      await requireActor(request);
      return getSellerPickupAddress(db, request.params.sellerId);
    },
  );
}
