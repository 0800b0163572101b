import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../../config';
import type { NewObject, ObjectStorage, PresignPutOptions, StoredObjectBody } from './object-storage';

/**
 * The origin of the presigned URLs, for the pages' CSP connect-src: the endpoint itself in path
 * style, the bucket's host name otherwise (AWS: bucket.s3.region.amazonaws.com).
 */
export function s3UploadOrigin(config: S3Config): string {
  if (!config.endpoint) {
    return config.forcePathStyle
      ? `https://s3.${config.region}.amazonaws.com`
      : `https://${config.bucket}.s3.${config.region}.amazonaws.com`;
  }
  const endpoint = new URL(config.endpoint);
  if (config.forcePathStyle) return endpoint.origin;
  return `${endpoint.protocol}//${config.bucket}.${endpoint.host}`;
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}

export interface S3ObjectStorageOptions {
  /** The signing time of presigned URLs; tests move it to make an expired one. */
  now?: () => Date;
}

/**
 * Any S3-compatible store (docs/rules/running.md, Running modes and adapters) with real presigned
 * PUT URLs. A presigned PUT cannot look at the bytes, so the uploads module checks size and type
 * when the object is first claimed or read.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly kind = 's3';
  readonly uploadOrigin: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly now: () => Date;

  constructor(config: S3Config, options: S3ObjectStorageOptions = {}) {
    this.bucket = config.bucket;
    this.uploadOrigin = s3UploadOrigin(config);
    this.now = options.now ?? (() => new Date());
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // By default the SDK puts a CRC32 of an *empty* body into presigned PUT URLs, which a real
      // S3 then refuses for any actual file; checksums only where an operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<string> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: options.contentType,
      ContentLength: options.contentLength,
    });
    return getSignedUrl(this.client, command, {
      expiresIn: options.expiresInSeconds,
      signingDate: this.now(),
      // Content-Type is signed only when known: otherwise the SDK's default type would be bound
      // and the browser's real one refused.
      ...(options.contentType ? { signableHeaders: new Set(['content-type']) } : {}),
    });
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async readStart(key: string, length: number): Promise<Uint8Array | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${length - 1}` }),
      );
      const bytes = (await answer.Body?.transformToByteArray()) ?? new Uint8Array();
      return bytes.subarray(0, length);
    } catch (error) {
      if (isNotFound(error)) return null;
      // An empty object has no byte 0: S3 answers 416 to the range.
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416)
        return new Uint8Array();
      throw error;
    }
  }

  async read(key: string): Promise<StoredObjectBody | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = answer.Body;
      // In Node the SDK answers with a stream (IncomingMessage); anything else is a broken peer.
      if (!(body instanceof Readable)) throw new Error('S3 GetObject answered without a stream body');
      return { body, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }),
    );
  }

  /** Eight at a time: gentle with the endpoint. */
  async putNew(objects: readonly NewObject[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      for (let object = objects[next++]; object; object = objects[next++])
        await this.put(object.key, object.bytes, object.contentType);
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
