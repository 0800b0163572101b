import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  claimImageBodySchema,
  MAX_UPLOAD_BYTES,
  uploadCopyParamsSchema,
  uploadIdParamsSchema,
  uploadRequestBodySchema,
  uploadUrlAnswerSchema,
} from '../../../domain/uploads';
import { currentUserSchema } from '../../../domain/users';
import { widthOfImageCopyName } from '../../../domain/image-copies';
import { LocalObjectStorage } from '../../adapters/storage/local-object-storage';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import type { Db } from '../../db/client';
import {
  checkLocalUploadUrl,
  createUploadUrl,
  openUpload,
  openUploadCopy,
  receiveLocalUpload,
  type ReadableUpload,
  setOwnDriverImage,
  setOwnProfileImage,
} from './uploads.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const claimErrors = { ...errors, 409: errorBodySchema, 413: errorBodySchema };

/** This server's address as the browser reaches it, to make the local upload URL absolute. */
function baseUrlOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

const DRIVER_IMAGES = [
  { path: '/api/drivers/vehicle-image', purpose: 'vehicle', what: 'vehicle' },
  { path: '/api/drivers/license-image', purpose: 'license', what: "driver's license" },
  { path: '/api/drivers/trailer-image', purpose: 'trailer', what: 'trailer' },
] as const;

export function registerUploadRoutes(app: App, { db, storage, config, ops }: AppContext): void {
  const deps = ops.uploads;

  app.post(
    '/api/objects/upload',
    {
      schema: {
        tags: ['uploads'],
        summary: 'A presigned PUT URL for one image of at most 10 MB, valid 5 minutes, and its object path',
        body: uploadRequestBodySchema,
        response: { 200: uploadUrlAnswerSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) =>
      createUploadUrl(deps, actorOf(request), request.body, baseUrlOf(request, config.publicUrl)),
  );

  app.get(
    '/objects/uploads/:id',
    {
      schema: {
        tags: ['uploads'],
        // Who sees a file (docs/rules/selling.md, Uploads and who sees a file).
        summary: 'An uploaded image, for those who may see it; 404 for anyone else',
        params: uploadIdParamsSchema,
        response: {
          200: z.custom<Readable>((value) => value instanceof Readable).describe('The image bytes'),
          400: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) =>
      sendFile(reply, await openUpload(deps, await request.getActor(), request.params.id)),
  );

  app.get(
    '/objects/uploads/:id/:copy',
    {
      schema: {
        tags: ['uploads'],
        // docs/decisions/0014-first-load.md, Resized copies.
        summary:
          'A resized WebP copy of an uploaded image (the original when the copy is missing), for those who may see the image; 404 for anyone else',
        params: uploadCopyParamsSchema,
        response: {
          200: z.custom<Readable>((value) => value instanceof Readable).describe('The image bytes'),
          400: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await openUploadCopy(
          deps,
          await request.getActor(),
          request.params.id,
          widthOfImageCopyName(request.params.copy),
        ),
      ),
  );

  app.put(
    '/api/users/profile-image',
    {
      schema: {
        tags: ['users'],
        summary: 'Set own profile picture to an uploaded image (it becomes public)',
        body: claimImageBodySchema,
        response: { 200: currentUserSchema, ...claimErrors },
      },
    },
    async (request) => setOwnProfileImage(deps, actorOf(request), request.body.imageUrl),
  );

  for (const image of DRIVER_IMAGES) {
    app.put(
      image.path,
      {
        config: { roles: ['driver'], forbiddenMessage: 'You need to be a driver to save driver images' },
        schema: {
          tags: ['delivery'],
          summary: `Driver: set own ${image.what} image to an uploaded image (seen only by the driver and admins)`,
          body: claimImageBodySchema,
          response: { 200: currentUserSchema, ...claimErrors },
        },
      },
      async (request) => setOwnDriverImage(deps, actorOf(request), image.purpose, request.body.imageUrl),
    );
  }

  if (storage instanceof LocalObjectStorage) void app.register(localUploadRoute({ db, storage }));
}

function sendFile(reply: FastifyReply, file: ReadableUpload) {
  return reply
    .header('content-type', file.contentType)
    .header('content-length', file.size)
    .header('content-disposition', 'inline')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', file.cacheControl)
    .send(file.body);
}

const localUploadQuerySchema = z.object({
  expires: z.string().max(20).optional(),
  signature: z.string().max(100).optional(),
});

/**
 * The target of the local store's presigned URLs. Encapsulated so its raw-body parsers (images and
 * octet streams up to 10 MB) exist on this route only; JSON and forms are refused here (415).
 */
function localUploadRoute(deps: { db: Db; storage: LocalObjectStorage }): FastifyPluginAsyncZod {
  return async (scope) => {
    scope.removeAllContentTypeParsers();
    const passBytes = (_request: FastifyRequest, body: Buffer, done: (error: null, body: Buffer) => void) =>
      done(null, body);
    const parser = { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES } as const;
    scope.addContentTypeParser(/^image\/[a-z0-9.+-]+$/i, parser, passBytes);
    scope.addContentTypeParser('application/octet-stream', parser, passBytes);

    scope.put(
      '/api/objects/local/uploads/:id',
      {
        // Above 10485760 bytes the body is refused with 413 before it is read.
        bodyLimit: MAX_UPLOAD_BYTES,
        schema: {
          hide: true,
          params: uploadIdParamsSchema,
          querystring: localUploadQuerySchema,
        },
        // The signature is checked before a byte of the body is read; no session is needed.
        onRequest: async (request) => {
          const query = localUploadQuerySchema.safeParse(request.query);
          checkLocalUploadUrl(deps.storage, request.params.id, query.success ? query.data : {});
        },
      },
      async (request, reply) => {
        const { etag } = await receiveLocalUpload(deps, request.params.id, request.body);
        return reply.status(200).header('etag', etag).send();
      },
    );
  };
}
