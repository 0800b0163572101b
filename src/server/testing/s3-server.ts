import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import type { S3Config } from '../config';

export interface TestS3Server {
  endpoint: string;
  /** Settings of the started server, as config.ts would build them from S3_* variables. */
  config: S3Config;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver's built-in account. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1, a free port and a temporary directory, with
 * one bucket. The S3 adapter is tested against a real local peer
 * (docs/rules/running.md, Running modes and adapters).
 */
export async function startTestS3Server(bucket = 'marketplace-test'): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  writeObjectsBeforeAnswering(server);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    config: {
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET_ACCESS_KEY,
      forcePathStyle: true,
    },
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
    },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** What s3rver's file store is given to keep, and how it names its files. */
interface StoredObject {
  bucket: string;
  key: string;
  content: Buffer | NodeJS.ReadableStream;
  metadata: unknown;
}
interface FileStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
}

/**
 * s3rver answers a PUT once the bytes are handed to the file's stream, not once they are written,
 * so a HEAD right after it could find an empty file on a busy machine. S3 itself shows an object
 * whole from the moment its PUT succeeds: the store here answers only once the file is closed.
 */
function writeObjectsBeforeAnswering(server: S3rver): void {
  const store = (server as unknown as { store: FileStore }).store;
  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await fs.promises.mkdir(path.dirname(objectPath), { recursive: true });
    const md5 = crypto.createHash('md5');
    let size = 0;
    const source: AsyncIterable<Buffer | string> = Buffer.isBuffer(object.content)
      ? Readable.from([object.content])
      : (object.content as unknown as AsyncIterable<Buffer | string>);
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer | string>) {
        for await (const chunk of chunks) {
          const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
          md5.update(bytes);
          size += bytes.length;
          yield bytes;
        }
      },
      fs.createWriteStream(objectPath),
    );
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}
