import { z } from 'zod';
import { idSchema } from './users';
import { OBJECT_PATH_PATTERN } from './upload-paths';

/**
 * Images of at most 10 MB (10485760 bytes) per file
 * (docs/rules/selling.md, Uploads and who sees a file).
 */
export const MAX_UPLOAD_BYTES = 10_485_760;

/**
 * The image types the marketplace accepts (docs/rules/selling.md, Uploads and who sees a file:
 * images only). SVG is left out on purpose: it is a document that can carry scripts, not a picture.
 */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];

/**
 * Why a file of an image type is refused when its bytes are not a picture that can be decoded: the
 * browser says it before the upload, the server when it makes the copies (docs/rules/selling.md,
 * Uploads and who sees a file).
 */
export const IMAGE_UNREADABLE_MESSAGE = 'File is not an image';

/** How many leading bytes `detectImageType` needs to recognise every accepted type. */
export const IMAGE_SIGNATURE_BYTES = 12;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

/**
 * The image type of a file by its magic bytes, or null when it is not one of the accepted images
 * (docs/rules/selling.md, Uploads and who sees a file: content is checked by its bytes, not only
 * its declared type).
 */
export function detectImageType(bytes: Uint8Array): ImageContentType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/**
 * What a claimed upload is used for; each purpose decides who may read it
 * (docs/rules/selling.md, Uploads and who sees a file).
 */
export const UPLOAD_PURPOSES = [
  'profile',
  'vehicle',
  'license',
  'trailer',
  'product',
  'delivery',
  'drop-off',
] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/**
 * pending: uploaded, not yet set on anything (only the uploader reads it); public: anyone;
 * owner: the uploader and admins; order: the order's parties and admins.
 */
export const UPLOAD_VISIBILITIES = ['pending', 'public', 'owner', 'order'] as const;
export type UploadVisibility = (typeof UPLOAD_VISIBILITIES)[number];

/**
 * Product images and profile pictures are public; driver documents are not
 * (docs/rules/selling.md, Uploads and who sees a file).
 */
export const VISIBILITY_OF_PURPOSE: Record<UploadPurpose, Exclude<UploadVisibility, 'pending'>> = {
  profile: 'public',
  product: 'public',
  vehicle: 'owner',
  trailer: 'owner',
  license: 'owner',
  delivery: 'order',
  'drop-off': 'order',
};

// The object path helpers live in a module without zod, so the browser's first load can use them
// without this module's schemas (docs/decisions/0014-first-load.md, Resized copies).
export { objectPathOf, uploadIdOfObjectPath } from './upload-paths';

export const INVALID_OBJECT_PATH_MESSAGE = 'Must be the path of an uploaded image (/objects/uploads/<id>)';

/** An imageUrl that points at an upload of this marketplace. */
export const objectPathSchema = z.string().regex(OBJECT_PATH_PATTERN, INVALID_OBJECT_PATH_MESSAGE);

/**
 * POST /api/objects/upload. The spec shows no body, so none is needed; a client that knows the
 * file may say its type and size, and then the upload URL is bound to them where the store can.
 */
export const uploadRequestBodySchema = z
  .strictObject({
    contentType: z
      .enum(IMAGE_CONTENT_TYPES, { message: `You can only upload: ${IMAGE_CONTENT_TYPES.join(', ')}` })
      .optional(),
    size: z
      .number()
      .int('Must be a whole number of bytes')
      .min(1, 'This file is smaller than the allowed size')
      .max(MAX_UPLOAD_BYTES, 'File exceeds maximum allowed size')
      .optional(),
  })
  // Fastify hands a body-less request over as null.
  .nullish();
export type UploadRequestBody = z.infer<typeof uploadRequestBodySchema>;

/** The presigned PUT URL (valid a few minutes) and the path to send later as imageUrl. */
export const uploadUrlAnswerSchema = z.object({
  uploadURL: z.string(),
  objectPath: z.string(),
});
export type UploadUrlAnswer = z.infer<typeof uploadUrlAnswerSchema>;

/** PUT /api/users/profile-image and PUT /api/drivers/{vehicle,license,trailer}-image. */
export const claimImageBodySchema = z.strictObject({ imageUrl: objectPathSchema });
export type ClaimImageBody = z.infer<typeof claimImageBodySchema>;

export const uploadIdParamsSchema = z.object({ id: idSchema });

/**
 * GET /objects/uploads/{id}/{copy}: which resized copy (docs/decisions/0014-first-load.md, Resized
 * copies), `w` and its width at most.
 */
export const uploadCopyParamsSchema = uploadIdParamsSchema.extend({
  copy: z
    .enum(['w160', 'w320', 'w640', 'w1280'])
    .describe('Which copy: w160, w320, w640 or w1280 (its width in pixels at most)'),
});
