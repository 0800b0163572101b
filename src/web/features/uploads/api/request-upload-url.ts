import { uploadUrlAnswerSchema, type UploadUrlAnswer } from '@domain/uploads';
import { apiSend } from '../../../lib/api-client';

/**
 * What the browser knows of the file. The declared type is passed on as it is, even when it is not
 * one of the accepted images: the server is the one that decides
 * (docs/rules/selling.md, Uploads and who sees a file) and its answer says which types it takes.
 */
export interface UploadUrlRequest {
  contentType: string;
  size: number;
}

/**
 * POST /api/objects/upload (docs/rules/selling.md, Uploads and who sees a file): a presigned URL
 * the file is then PUT to, and the object path to set on a profile, product, driver or order
 * afterwards.
 */
export async function requestUploadUrl(file: UploadUrlRequest): Promise<UploadUrlAnswer> {
  return uploadUrlAnswerSchema.parse(
    await apiSend('POST', '/api/objects/upload', { contentType: file.contentType, size: file.size }),
  );
}
