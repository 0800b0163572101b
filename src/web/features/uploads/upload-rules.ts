import type { Locale } from '@uppy/core/utils';
import { errorBodySchema } from '@domain/errors';
import { MAX_PRODUCT_IMAGES as PRODUCT_IMAGE_LIMIT } from '@domain/listings';
import { MAX_UPLOAD_BYTES } from '@domain/uploads';
import { ApiError } from '../../lib/api-client';

/** At most 10 MB (10485760 bytes) per file, images only (docs/rules/screens-shared.md, Uploader). */
export const MAX_IMAGE_BYTES = MAX_UPLOAD_BYTES;
export const ALLOWED_IMAGE_TYPES = ['image/*'];

/**
 * Profile, driver and delivery photos take 1 file; a product at most 10 images
 * (docs/rules/screens-shared.md, Uploader).
 */
export const SINGLE_IMAGE = 1;
// The server enforces the same limit (docs/rules/selling.md, Seller listings).
export const MAX_PRODUCT_IMAGES = PRODUCT_IMAGE_LIMIT;

/** Six files upload at a time (docs/rules/screens-shared.md, Uploader). */
export const UPLOAD_CONCURRENCY = 6;

/**
 * Server and network errors are retried after these delays, then given up
 * (docs/rules/screens-shared.md, Uploader).
 */
export const UPLOAD_RETRY_DELAYS_MS: readonly number[] = [0, 1000, 3000, 5000];

/**
 * Uploader notices go after 5000 ms; "Connected to the Internet" after 3000 ms
 * (docs/rules/screens-shared.md, Uploader).
 */
export const UPLOAD_NOTICE_TIMEOUT_MS = 5000;
export const ONLINE_NOTICE_TIMEOUT_MS = 3000;

// Progress updates are throttled to 500 ms (docs/rules/screens-shared.md, Uploader). Uppy's core throttles
// its total progress to exactly this (lodash throttle, leading and trailing), and the progress bar
// reads only that.

/** English plural rule: 1 -> form 0, anything else -> form 1. */
const pluralizeEnglish = (count: number): number => (count === 1 ? 0 : 1);

/**
 * The uploader's messages (docs/rules/screens-shared.md, Uploader), word for word. Uppy's own strings name
 * the file and the size; the spec's do not, so the ones that differ are replaced.
 */
export const UPLOADER_LOCALE: Locale = {
  strings: {
    youCanOnlyUploadX: {
      0: 'You can only upload %{smart_count} file(s)',
      1: 'You can only upload %{smart_count} file(s)',
    },
    youHaveToAtLeastSelectX: {
      0: 'You have to select at least %{smart_count} file(s)',
      1: 'You have to select at least %{smart_count} file(s)',
    },
    exceedsSize: 'File exceeds maximum allowed size',
    inferiorSize: 'This file is smaller than the allowed size',
    youCanOnlyUploadFileTypes: 'You can only upload: %{types}',
    noDuplicates: 'Cannot add the duplicate file',
    noMoreFilesAllowed: 'Cannot add more files',
    failedToUpload: 'Failed to upload file',
    noInternetConnection: 'No Internet connection',
    connectedToInternet: 'Connected to the Internet',
  },
  pluralize: pluralizeEnglish,
};

/**
 * What to do after a failed upload (docs/rules/screens-shared.md, Uploader):
 * - 'retry': the same presigned URL again after the next delay (server and network errors, 429);
 * - 'renew': a new presigned URL after the next delay (403 'Request has expired', 409);
 * - 'final': give up (every other 4xx, and anything that is not a request failing).
 */
export type UploadFailureAction = 'retry' | 'renew' | 'final';

/** Where the status of a failed call sits: our API client's error, or Uppy's S3 service error. */
export function statusOfUploadError(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  if (typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number')
    return error.status;
  return undefined;
}

/** The answer's body of a failed call, when it carried one. */
function bodyOfUploadError(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.body;
  if (typeof error === 'object' && error !== null && 'body' in error && typeof error.body === 'string')
    return error.body;
  return undefined;
}

/**
 * No answer came: fetch fails with a TypeError, Uppy's S3 client with an error whose code is
 * 'NETWORK' (class names are not used: minifying renames them).
 */
function isNetworkFailure(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  if (typeof error !== 'object' || error === null) return false;
  return (
    ('code' in error && error.code === 'NETWORK') ||
    ('isNetworkError' in error && error.isNetworkError === true)
  );
}

export function classifyUploadError(error: unknown): UploadFailureAction {
  const status = statusOfUploadError(error);
  if (status === undefined) return isNetworkFailure(error) ? 'retry' : 'final';
  // S3 and the local store both answer an expired presigned URL with 403 'Request has expired'.
  if (status === 403) return bodyOfUploadError(error)?.includes('Request has expired') ? 'renew' : 'final';
  if (status === 409) return 'renew';
  if (status === 429 || status >= 500) return 'retry';
  return 'final';
}

/**
 * How long a 429 asks to wait: the storage's Retry-After, or the next retry delay when it sent none
 * (0 here; the caller takes the larger). Undefined for any other failure.
 */
export function retryAfterOf(error: unknown): number | undefined {
  if (statusOfUploadError(error) !== 429) return undefined;
  if (
    typeof error === 'object' &&
    error !== null &&
    'retryAfterMs' in error &&
    typeof error.retryAfterMs === 'number'
  )
    return error.retryAfterMs;
  return 0;
}

/** The delay before retry number `retriesDone + 1`, or null when the retries are used up. */
export function retryDelayFor(retriesDone: number): number | null {
  return UPLOAD_RETRY_DELAYS_MS[retriesDone] ?? null;
}

/** The server's own message about a failed upload (a JSON error body), shown under the notice. */
export function uploadErrorDetails(error: unknown): string | undefined {
  const body = bodyOfUploadError(error);
  if (!body) return undefined;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.message : undefined;
  } catch {
    // S3 answers XML, which says nothing a person can act on.
    return undefined;
  }
}
