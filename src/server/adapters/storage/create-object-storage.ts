import path from 'node:path';
import type { Config } from '../../config';
import type { ObjectStorage } from './object-storage';
import { deriveUploadSigningKey, LocalObjectStorage } from './local-object-storage';

/**
 * Files under DATA_DIR/objects with URLs this server signs, or S3 when configured
 * (docs/rules/running.md, Running modes and adapters).
 * One factory for the server, the seed (demo pictures go where the server reads them) and tests.
 * The AWS SDK is loaded only when S3 is configured (docs/decisions/0016-embedded-database-process.md,
 * Memory).
 */
export async function createObjectStorage(config: Config, sessionSecret: string): Promise<ObjectStorage> {
  if (config.s3) {
    const { S3ObjectStorage } = await import('./s3-object-storage');
    return new S3ObjectStorage(config.s3);
  }
  return new LocalObjectStorage({
    root: path.join(config.dataDir, 'objects'),
    signingKey: deriveUploadSigningKey(sessionSecret),
  });
}
