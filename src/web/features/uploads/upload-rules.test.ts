import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import {
  classifyUploadError,
  retryDelayFor,
  UPLOAD_RETRY_DELAYS_MS,
  UPLOADER_LOCALE,
  uploadErrorDetails,
} from './upload-rules';

/** The shape of Uppy's S3 client errors, without importing its internals. */
function s3Error(status: number, body = '') {
  return Object.assign(new Error(`S3 returned ${status}`), { status, body });
}

const jsonBody = (message: string) => JSON.stringify({ message, code: 'x', requestId: 'r' });

describe('upload failures (docs/rules/screens-shared.md, Uploader)', () => {
  it('retries server errors, rate limits and requests that got no answer', () => {
    expect(classifyUploadError(s3Error(500))).toBe('retry');
    expect(classifyUploadError(s3Error(503))).toBe('retry');
    expect(classifyUploadError(s3Error(429))).toBe('retry');
    expect(classifyUploadError(new ApiError(502, 'Bad Gateway', ''))).toBe('retry');
    expect(classifyUploadError(new TypeError('Failed to fetch'))).toBe('retry');
    expect(classifyUploadError(Object.assign(new Error('Network error'), { code: 'NETWORK' }))).toBe('retry');
  });

  it("asks for a new URL after 403 'Request has expired' and after 409", () => {
    expect(classifyUploadError(s3Error(403, jsonBody('Request has expired')))).toBe('renew');
    expect(
      classifyUploadError(
        s3Error(403, '<Error><Code>AccessDenied</Code><Message>Request has expired</Message>'),
      ),
    ).toBe('renew');
    expect(classifyUploadError(s3Error(409, jsonBody('This upload is already in use')))).toBe('renew');
  });

  it('gives up on every other 4xx and on errors that are not failed requests', () => {
    expect(classifyUploadError(s3Error(403, jsonBody('Invalid signature')))).toBe('final');
    expect(classifyUploadError(s3Error(400, jsonBody('File is not an image')))).toBe('final');
    expect(classifyUploadError(s3Error(413))).toBe('final');
    expect(classifyUploadError(new ApiError(401, 'Unauthorized', ''))).toBe('final');
    expect(classifyUploadError(new Error('something else'))).toBe('final');
  });

  it('waits 0, 1, 3 and 5 seconds between retries, then stops', () => {
    expect(UPLOAD_RETRY_DELAYS_MS).toEqual([0, 1000, 3000, 5000]);
    expect([0, 1, 2, 3, 4].map(retryDelayFor)).toEqual([0, 1000, 3000, 5000, null]);
  });

  it("shows the server's message of a JSON error body, and nothing of S3's XML", () => {
    expect(uploadErrorDetails(s3Error(400, jsonBody('File is not an image')))).toBe('File is not an image');
    expect(
      uploadErrorDetails(new ApiError(400, 'Bad Request', jsonBody('You can only upload: image/png'))),
    ).toBe('You can only upload: image/png');
    expect(uploadErrorDetails(s3Error(403, '<Error><Code>AccessDenied</Code></Error>'))).toBeUndefined();
    expect(uploadErrorDetails(new TypeError('Failed to fetch'))).toBeUndefined();
  });

  it('says "file(s)" whatever the number, as the spec words it', () => {
    expect(UPLOADER_LOCALE.strings.youCanOnlyUploadX).toEqual({
      0: 'You can only upload %{smart_count} file(s)',
      1: 'You can only upload %{smart_count} file(s)',
    });
  });
});
