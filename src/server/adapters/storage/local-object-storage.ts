import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  assertSafeKey,
  type NewObject,
  type ObjectStorage,
  type PresignPutOptions,
  type StoredObjectBody,
} from './object-storage';

/** Where this server accepts the PUT of a local presigned URL (see uploads.routes.ts). */
export const LOCAL_UPLOAD_PATH_PREFIX = '/api/objects/local/';

export type UploadSignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * The upload-URL key is derived from the session secret rather than being the secret itself, so a
 * signature never doubles as a cookie signature.
 */
export function deriveUploadSigningKey(sessionSecret: string): Buffer {
  return crypto
    .createHmac('sha256', sessionSecret)
    .update('marketplace local object storage upload URL v1')
    .digest();
}

export interface LocalObjectStorageOptions {
  /** Directory of the files (DATA_DIR/objects); created on the first write. */
  root: string;
  signingKey: Buffer;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

/**
 * The embedded default (docs/rules/running.md, Running modes and adapters): files under
 * DATA_DIR/objects, and presigned PUT URLs that this server signs with HMAC-SHA256 over the method,
 * the key and the expiry, and accepts itself.
 */
export class LocalObjectStorage implements ObjectStorage {
  readonly kind = 'local';
  readonly uploadOrigin = undefined;
  private readonly root: string;
  private readonly signingKey: Buffer;
  private readonly now: () => number;

  constructor(options: LocalObjectStorageOptions) {
    this.root = path.resolve(options.root);
    this.signingKey = options.signingKey;
    this.now = options.now ?? Date.now;
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<string> {
    assertSafeKey(key);
    const expires = Math.floor(this.now() / 1000) + options.expiresInSeconds;
    const signature = this.sign('PUT', key, String(expires));
    return `${LOCAL_UPLOAD_PATH_PREFIX}${key}?expires=${expires}&signature=${signature}`;
  }

  /** Checks a presigned URL's query: the signature first, so a forged expiry reads as forged. */
  checkUploadSignature(
    method: string,
    key: string,
    expires: string,
    signature: string,
  ): UploadSignatureCheck {
    if (!/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.sign(method, key, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 < this.now() ? 'expired' : 'valid';
  }

  async head(key: string): Promise<{ size: number } | null> {
    const stat = await this.stat(key);
    return stat ? { size: stat.size } : null;
  }

  async readStart(key: string, length: number): Promise<Uint8Array | null> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.fileOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async read(key: string): Promise<StoredObjectBody | null> {
    const stat = await this.stat(key);
    if (!stat) return null;
    return { body: fs.createReadStream(this.fileOf(key)), size: stat.size };
  }

  /** Writes atomically: a temporary file beside the target, then a rename over it. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.fileOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Keys never start with a dot, so the temporary name cannot be another object's.
    const temporary = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`,
    );
    try {
      await fs.promises.writeFile(temporary, bytes, { flag: 'wx' });
      await fs.promises.rename(temporary, file);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
  }

  /**
   * Writes the files in one go with synchronous calls, one turn of the event loop after the call:
   * the demo's 1,700 pictures take about 0.15 s this way, where `put`'s asynchronous calls, eight
   * files at a time, kept a starting server busy for over a second
   * (docs/decisions/0016-embedded-database-process.md, Start-up). No temporary files: a key that
   * exists already is refused ('wx'), and a file cut short by a crash is under a key that nothing
   * names, since the demo's rows commit only once every file is written.
   */
  async putNew(objects: readonly NewObject[]): Promise<void> {
    const files = objects.map(({ key, bytes }) => ({ file: this.fileOf(key), bytes }));
    await new Promise((resolve) => setImmediate(resolve));
    const folders = new Set<string>();
    for (const { file, bytes } of files) {
      const folder = path.dirname(file);
      if (!folders.has(folder)) {
        fs.mkdirSync(folder, { recursive: true });
        folders.add(folder);
      }
      fs.writeFileSync(file, bytes, { flag: 'wx' });
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.fileOf(key), { force: true });
  }

  async close(): Promise<void> {}

  private sign(method: string, key: string, expires: string): string {
    return crypto
      .createHmac('sha256', this.signingKey)
      .update(`${method}\n${key}\n${expires}`)
      .digest('base64url');
  }

  private fileOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  private async stat(key: string): Promise<fs.Stats | null> {
    try {
      const stat = await fs.promises.stat(this.fileOf(key));
      return stat.isFile() ? stat : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}
