import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { ObjectStorage } from '../../adapters/storage/object-storage';
import type { LocalObjectStorage } from '../../adapters/storage/local-object-storage';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { canClaimUpload, canReadUpload, canSaveDriverImages } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import type { CurrentUser } from '../../../domain/users';
import { IMAGE_COPY_WIDTHS, type ImageCopyWidth } from '../../../domain/image-copies';
import {
  detectImageType,
  IMAGE_SIGNATURE_BYTES,
  INVALID_OBJECT_PATH_MESSAGE,
  MAX_UPLOAD_BYTES,
  objectPathOf,
  uploadIdOfObjectPath,
  VISIBILITY_OF_PURPOSE,
  type UploadPurpose,
  type UploadRequestBody,
  type UploadUrlAnswer,
} from '../../../domain/uploads';
import { toCurrentUser } from '../users/users.service';
import {
  claimPendingObject,
  findUploadedObjectByKey,
  insertUploadedObject,
  markObjectNotUploaded,
  markObjectUploaded,
  type UploadedObjectRow,
} from './uploads.queries';
import { findOrderParties } from '../orders/order-records';
import {
  sendDriverBackToReview,
  setUserImage,
  type UserImageField,
  type UserRow,
} from '../users/user-records';
import { recordAdminAction } from '../audit/audit.service';
import { assertDecodableImage, copyKeyOf, ImageRefusedError, makeImageCopies } from './image-copies';

/** An upload URL is valid for a few minutes (docs/rules/selling.md, Uploads and who sees a file). */
export const UPLOAD_URL_TTL_SECONDS = 5 * 60;

/** What the upload calls need: the database, the object store, the clock, and the copies' maker. */
export interface UploadDeps {
  db: Db;
  storage: ObjectStorage;
  /** The clock of the records a change writes (a driver sent back to review). */
  now: () => Date;
  /** Makes a claimed product picture's resized copies (docs/decisions/0014-first-load.md). */
  imageCopies: ImageCopyScheduler;
}

export function objectKeyOf(uploadId: string): string {
  return `uploads/${uploadId}`;
}

const tooLarge = () => new AppError('payload_too_large', 'File exceeds maximum allowed size');
const notAnImage = () => badRequest('File is not an image');
const alreadyInUse = () => conflict('This upload is already in use');

/**
 * POST /api/objects/upload: a pending object owned by the caller and a presigned PUT URL for it.
 * `baseUrl` (this server's address) makes the local store's relative URL absolute, as Uppy needs.
 */
export async function createUploadUrl(
  deps: UploadDeps,
  actor: Actor,
  body: UploadRequestBody,
  baseUrl: string,
): Promise<UploadUrlAnswer> {
  const id = crypto.randomUUID();
  const key = objectKeyOf(id);
  await insertUploadedObject(deps.db, { id, key, ownerId: actor.id });
  const url = await deps.storage.presignPut(key, {
    contentType: body?.contentType,
    contentLength: body?.size,
    expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
  });
  return { uploadURL: new URL(url, baseUrl).href, objectPath: objectPathOf(id) };
}

/**
 * The local store's presigned URL: the signature is the authority, not a session
 * (docs/rules/running.md, Running modes and adapters).
 */
export function checkLocalUploadUrl(
  storage: LocalObjectStorage,
  uploadId: string,
  query: { expires?: string | undefined; signature?: string | undefined },
): void {
  const check = storage.checkUploadSignature(
    'PUT',
    objectKeyOf(uploadId),
    query.expires ?? '',
    query.signature ?? '',
  );
  // Uppy retries a 403 'Request has expired' after a delay (docs/rules/screens-shared.md, Uploader), as with
  // S3.
  if (check === 'expired') throw forbidden('Request has expired');
  if (check === 'invalid') throw forbidden('Invalid signature');
}

/**
 * The PUT of a local presigned URL: an image by its bytes
 * (docs/rules/selling.md, Uploads and who sees a file), of at most 10 MB, into a pending object.
 * Repeating the PUT before the object is claimed replaces the file (a retry).
 */
export async function receiveLocalUpload(
  deps: { db: Db; storage: LocalObjectStorage },
  uploadId: string,
  body: unknown,
): Promise<{ etag: string }> {
  if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The file is empty');
  if (body.length > MAX_UPLOAD_BYTES) throw tooLarge();
  const contentType = detectImageType(body);
  if (!contentType) throw notAnImage();
  const key = objectKeyOf(uploadId);
  const row = await findUploadedObjectByKey(deps.db, key);
  if (!row) throw notFound('Upload not found');
  if (row.visibility !== 'pending') throw alreadyInUse();
  await deps.storage.put(key, body);
  if (!(await markObjectUploaded(deps.db, key, { size: body.length, contentType }))) throw alreadyInUse();
  // Uppy's S3 uploader reads the ETag of the answer; S3 uses the MD5 of the body.
  return { etag: `"${crypto.createHash('md5').update(body).digest('hex')}"` };
}

/**
 * Makes sure the stored bytes of an object were checked: at most 10 MB and an image by its first
 * bytes (docs/rules/selling.md, Uploads and who sees a file). The local store checks at PUT; an S3
 * PUT cannot, so this runs when an object is first claimed or read. Refused content is deleted from
 * the store.
 */
async function ensureCheckedBytes(
  deps: Pick<UploadDeps, 'db' | 'storage'>,
  row: UploadedObjectRow,
): Promise<UploadedObjectRow> {
  if (row.uploadedAt && row.contentType) return row;
  const head = await deps.storage.head(row.key);
  if (!head) throw badRequest('Upload not finished');
  if (head.size > MAX_UPLOAD_BYTES) {
    await discardBytes(deps, row.key);
    throw tooLarge();
  }
  const start = await deps.storage.readStart(row.key, IMAGE_SIGNATURE_BYTES);
  if (!start) throw badRequest('Upload not finished');
  const contentType = head.size > 0 ? detectImageType(start) : null;
  if (!contentType) {
    await discardBytes(deps, row.key);
    throw notAnImage();
  }
  const updated = await markObjectUploaded(deps.db, row.key, { size: head.size, contentType });
  if (updated) return updated;
  const current = await findUploadedObjectByKey(deps.db, row.key);
  if (!current) throw notFound('Upload not found');
  return current;
}

async function discardBytes(deps: Pick<UploadDeps, 'db' | 'storage'>, key: string): Promise<void> {
  await deps.storage.delete(key);
  await markObjectNotUploaded(deps.db, key);
}

/** Refuses (400, bytes deleted) an upload the image decoder cannot read. */
async function ensureDecodable(deps: Pick<UploadDeps, 'db' | 'storage'>, key: string): Promise<void> {
  const stored = await deps.storage.read(key);
  if (!stored) throw badRequest('Upload not finished');
  const bytes = await readAll(stored.body, MAX_UPLOAD_BYTES);
  try {
    await assertDecodableImage(bytes);
  } catch (error) {
    if (!(error instanceof ImageRefusedError)) throw error;
    await discardBytes(deps, key);
    throw badRequest(error.message);
  }
}

export interface ClaimRequest<T> {
  purpose: UploadPurpose;
  /** The order whose parties may read a delivery or drop-off photo. */
  orderId?: string | undefined;
  /** The target already holds this object: claiming it again for the same target is a no-op. */
  alreadyHeld: boolean;
  /** Stores the object path on the target (a user field, a product), in the claim's transaction. */
  assign(tx: Db, objectPath: string): Promise<T>;
}

/**
 * Setting an upload's path on something claims it
 * (docs/rules/selling.md, Uploads and who sees a file): only the uploader's own object, only once
 * it holds a checked image, and once for one purpose; the purpose decides who may read it. Generic
 * so products and delivery photos reuse it.
 */
export async function claimUpload<T>(
  deps: Pick<UploadDeps, 'db' | 'storage'>,
  actor: Actor,
  imageUrl: string,
  claim: ClaimRequest<T>,
): Promise<T> {
  const uploadId = uploadIdOfObjectPath(imageUrl);
  if (!uploadId) throw badRequest(INVALID_OBJECT_PATH_MESSAGE, { imageUrl: INVALID_OBJECT_PATH_MESSAGE });
  if (VISIBILITY_OF_PURPOSE[claim.purpose] === 'order' && !claim.orderId)
    throw new Error('A delivery or drop-off photo is claimed for an order');
  const key = objectKeyOf(uploadId);
  const row = await findUploadedObjectByKey(deps.db, key);
  // Another user's upload is not confirmed to exist (CONTRIBUTING.md, Code layout rules).
  if (!row || !canClaimUpload(actor, row)) throw notFound('Upload not found');
  const visibility = VISIBILITY_OF_PURPOSE[claim.purpose];
  if (row.visibility !== 'pending') {
    if (claim.alreadyHeld && row.visibility === visibility)
      return deps.db.transaction((tx) => claim.assign(tx, imageUrl));
    throw alreadyInUse();
  }
  await ensureCheckedBytes(deps, row);
  // A product picture was decoded whole before the claim (checkProductPicture); every other upload
  // is decoded here, before anything holds it.
  if (claim.purpose !== 'product') await ensureDecodable(deps, key);
  return deps.db.transaction(async (tx) => {
    const claimed = await claimPendingObject(tx, {
      key,
      ownerId: actor.id,
      visibility,
      orderId: claim.orderId ?? null,
    });
    if (!claimed) throw alreadyInUse();
    return claim.assign(tx, imageUrl);
  });
}

export type UserImagePurpose = Extract<UploadPurpose, 'profile' | 'vehicle' | 'license' | 'trailer'>;

const FIELD_OF_PURPOSE: Record<UserImagePurpose, UserImageField> = {
  profile: 'profileImageUrl',
  vehicle: 'vehicleImageUrl',
  license: 'licenseImageUrl',
  trailer: 'trailerImageUrl',
};

/** The documents an admin approves a driver on; the trailer image only opens trailer orders. */
const isReviewedDocument = (purpose: UserImagePurpose) => purpose === 'vehicle' || purpose === 'license';

async function setOwnImage(
  deps: UploadDeps,
  actor: Actor,
  purpose: UserImagePurpose,
  imageUrl: string,
): Promise<CurrentUser> {
  const field = FIELD_OF_PURPOSE[purpose];
  const row = await claimUpload<UserRow>(deps, actor, imageUrl, {
    purpose,
    alreadyHeld: actor[field] === imageUrl,
    assign: async (tx, objectPath) => {
      const updated = await setUserImage(tx, actor.id, field, objectPath);
      if (!updated) throw notFound('User not found');
      if (!isReviewedDocument(purpose) || actor[field] === objectPath) return updated;
      // A verified driver's new vehicle or license image has not been seen by an admin: back to
      // review, recorded in the activity log (docs/rules/deliveries.md, Deliveries).
      const now = deps.now();
      const sentBack = await sendDriverBackToReview(tx, actor.id, now);
      if (!sentBack) return updated;
      await recordAdminAction(tx, actor, {
        action: 'driver.documents_changed',
        target: { type: 'user', id: actor.id, label: actor.email },
        before: { isVerified: true },
        after: { isVerified: false, document: purpose },
        now,
      });
      return sentBack;
    },
  });
  return toCurrentUser(row);
}

/** PUT /api/users/profile-image: any signed-in user; the picture becomes public. */
export async function setOwnProfileImage(
  deps: UploadDeps,
  actor: Actor,
  imageUrl: string,
): Promise<CurrentUser> {
  return setOwnImage(deps, actor, 'profile', imageUrl);
}

/** PUT /api/drivers/{vehicle,license,trailer}-image: drivers only; readable by them and admins. */
export async function setOwnDriverImage(
  deps: UploadDeps,
  actor: Actor,
  purpose: Exclude<UserImagePurpose, 'profile'>,
  imageUrl: string,
): Promise<CurrentUser> {
  if (!canSaveDriverImages(actor)) throw forbidden('You need to be a driver to save driver images');
  return setOwnImage(deps, actor, purpose, imageUrl);
}

export interface ReadableUpload {
  body: Readable;
  size: number;
  contentType: string;
  cacheControl: string;
}

/** The checked upload row, when the actor may read it; 404 for anyone else. */
async function findReadableUpload(
  deps: UploadDeps,
  actor: Actor | null,
  uploadId: string,
): Promise<UploadedObjectRow> {
  const row = await findUploadedObjectByKey(deps.db, objectKeyOf(uploadId));
  if (!row) throw notFound();
  const parties =
    row.visibility === 'order' && row.orderId ? await findOrderParties(deps.db, row.orderId) : undefined;
  if (!canReadUpload(actor, row, parties)) throw notFound();
  try {
    return await ensureCheckedBytes(deps, row);
  } catch (error) {
    if (error instanceof AppError) throw notFound();
    throw error;
  }
}

/** Public files never change under their id; private ones must not sit in shared caches. */
const cacheControlOf = (row: UploadedObjectRow) =>
  row.visibility === 'public' ? 'public, max-age=31536000, immutable' : 'private, no-store';

async function openOriginal(deps: UploadDeps, row: UploadedObjectRow): Promise<ReadableUpload> {
  const stored = await deps.storage.read(row.key);
  // A file that grew past the limit after its check (an S3 URL used twice) is not served.
  if (!stored || stored.size > MAX_UPLOAD_BYTES || !row.contentType) {
    stored?.body.destroy();
    throw notFound();
  }
  return {
    body: stored.body,
    size: stored.size,
    // The type read from the bytes at the check, never one the uploader declared.
    contentType: row.contentType,
    cacheControl: cacheControlOf(row),
  };
}

/** GET /objects/uploads/{id}: the file for those who may read it; 404 for anyone else. */
export async function openUpload(
  deps: UploadDeps,
  actor: Actor | null,
  uploadId: string,
): Promise<ReadableUpload> {
  return openOriginal(deps, await findReadableUpload(deps, actor, uploadId));
}

/**
 * GET /objects/uploads/{id}/w{width}: the resized copy (docs/decisions/0014-first-load.md, Resized
 * copies) for those who may read the original, 404 for anyone else. Without a copy of that width
 * the largest narrower one answers: a picture narrower than the width has no wider copy, its copy at
 * its own width is the best there is. With no copy at all (an upload older than copies, a resize
 * that failed) the original answers, so a picture never breaks; that answer is cached a day only,
 * since copies made later should replace it.
 */
export async function openUploadCopy(
  deps: UploadDeps,
  actor: Actor | null,
  uploadId: string,
  width: ImageCopyWidth,
): Promise<ReadableUpload> {
  const row = await findReadableUpload(deps, actor, uploadId);
  const candidates = IMAGE_COPY_WIDTHS.filter((candidate) => candidate <= width).reverse();
  for (const candidate of candidates) {
    const copy = await deps.storage.read(copyKeyOf(row.key, candidate));
    if (copy)
      return {
        body: copy.body,
        size: copy.size,
        contentType: 'image/webp',
        cacheControl: cacheControlOf(row),
      };
  }
  const original = await openOriginal(deps, row);
  if (row.visibility !== 'public') return original;
  // Copies on their way are asked for again within a minute; a picture that has none keeps the
  // original a day.
  const cacheControl = deps.imageCopies.isPending(row.key) ? 'public, max-age=60' : 'public, max-age=86400';
  return { ...original, cacheControl };
}

/** Reads a stored object whole, refusing one over `limit` bytes. */
async function readAll(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buffer.length;
    if (total > limit) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

/** Where the copies of a claimed product picture are made (ImageCopyMaker below). */
export interface ImageCopyScheduler {
  schedule(key: string): void;
  /** The copies of `key` are queued or being made. */
  isPending(key: string): boolean;
}

/**
 * Before a picture is claimed for a product: decodes it whole, outside any transaction, so the
 * claim's transaction never waits on a decoder. A picture the decoder refuses (not an image after
 * all, or a decompression bomb) is refused like content that fails the byte check: 400, its bytes
 * deleted, nothing claimed. An upload the caller may not claim is left alone: the claim that
 * follows answers for it. Its resized copies are made after the claim
 * (docs/decisions/0014-first-load.md, Resized copies): see {@link scheduleImageCopies}.
 */
export async function checkProductPicture(deps: UploadDeps, actor: Actor, imageUrl: string): Promise<void> {
  const uploadId = uploadIdOfObjectPath(imageUrl);
  if (!uploadId) return;
  const key = objectKeyOf(uploadId);
  const row = await findUploadedObjectByKey(deps.db, key);
  if (!row || !canClaimUpload(actor, row) || row.visibility !== 'pending') return;
  await ensureCheckedBytes(deps, row);
  await ensureDecodable(deps, key);
}

/** Once a product picture is claimed: its copies are made in the background. */
export function scheduleImageCopies(deps: Pick<UploadDeps, 'imageCopies'>, imageUrl: string): void {
  const uploadId = uploadIdOfObjectPath(imageUrl);
  if (uploadId) deps.imageCopies.schedule(objectKeyOf(uploadId));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Makes the resized copies of claimed product pictures (docs/decisions/0014-first-load.md). */
    imageCopies: ImageCopyMaker;
  }
}

/**
 * Makes the resized copies of product pictures after they are claimed, one at a time, in the
 * background of this process (docs/decisions/0014-first-load.md, Resized copies): saving a listing
 * with ten photos waits for ten decodes, not for forty encodes. Until a picture's copies are written
 * its readers get the original, which is why a failure here only costs bytes. Closing the app waits
 * for the copy in progress and starts no other.
 */
export class ImageCopyMaker implements ImageCopyScheduler {
  readonly #storage: ObjectStorage;
  readonly #log: Pick<FastifyBaseLogger, 'warn'>;
  readonly #pending = new Set<string>();
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(storage: ObjectStorage, log: Pick<FastifyBaseLogger, 'warn'>) {
    this.#storage = storage;
    this.#log = log;
  }

  /** Queues the copies of the stored picture at `key`; a key already waiting is not queued twice. */
  schedule(key: string): void {
    if (this.#closed || this.#pending.has(key)) return;
    this.#pending.add(key);
    this.#queue = this.#queue
      .then(() => (this.#closed ? undefined : this.#make(key)))
      .finally(() => {
        this.#pending.delete(key);
      });
  }

  /** The copies of `key` are queued or being made: its readers get the original for now. */
  isPending(key: string): boolean {
    return this.#pending.has(key);
  }

  /** Settles once every copy queued so far is written (or given up). */
  idle(): Promise<void> {
    return this.#queue;
  }

  /** Starts nothing more, and waits for the copy being made. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue;
  }

  async #make(key: string): Promise<void> {
    let copies: Awaited<ReturnType<typeof makeImageCopies>>;
    try {
      const stored = await this.#storage.read(key);
      if (!stored) return;
      copies = await makeImageCopies(await readAll(stored.body, MAX_UPLOAD_BYTES));
    } catch (error) {
      this.#log.warn({ err: error, key }, 'resizing a picture failed; it is served without copies');
      return;
    }
    try {
      await Promise.all(
        copies.map((copy) => this.#storage.put(copyKeyOf(key, copy.width), copy.bytes, 'image/webp')),
      );
    } catch (error) {
      this.#log.warn(
        { err: error, key },
        'storing the copies of a picture failed; it is served without them',
      );
      await Promise.allSettled(copies.map((copy) => this.#storage.delete(copyKeyOf(key, copy.width))));
    }
  }
}
