import type { Readable } from 'node:stream';

export interface PresignPutOptions {
  /** Bound into the URL where the store can (S3): the browser must then send exactly this type. */
  contentType?: string | undefined;
  /** Likewise the exact size in bytes, when the client said it. */
  contentLength?: number | undefined;
  expiresInSeconds: number;
}

export interface NewObject {
  key: string;
  bytes: Uint8Array;
  contentType: string;
}

export interface StoredObjectBody {
  body: Readable;
  size: number;
}

/**
 * Where uploaded files live (docs/rules/running.md, Running modes and adapters): files under
 * DATA_DIR/objects by default, any S3-compatible store in production. Keys look like
 * `uploads/<uuid>`. Who may read a file is decided by the uploads module, never by the store:
 * browsers always read through this server.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** The origin browsers send files to when it is not this server (for CSP connect-src). */
  readonly uploadOrigin: string | undefined;
  /**
   * A URL that accepts one PUT of the file for a few minutes. It may be relative to this server
   * (the local store); the caller makes it absolute.
   */
  presignPut(key: string, options: PresignPutOptions): Promise<string>;
  /** The stored size, or null when nothing was uploaded under the key. */
  head(key: string): Promise<{ size: number } | null>;
  /** Up to `length` bytes from the start, or null when the object does not exist. */
  readStart(key: string, length: number): Promise<Uint8Array | null>;
  read(key: string): Promise<StoredObjectBody | null>;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Stores objects under new keys, which must hold nothing yet: the demo marketplace's pictures,
   * written while the server starts, before it listens (src/server/db/seed/demo.ts). Rejects, with
   * some of them written, when one cannot be.
   */
  putNew(objects: readonly NewObject[]): Promise<void>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_-]*)*$/i;

/** Keys are made by this server, but a file path is built from them: refuse anything odd. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.length > 200) throw new Error(`Unsafe object key: ${JSON.stringify(key)}`);
}
