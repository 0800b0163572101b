import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';

/**
 * The cookie-signing secret: SESSION_SECRET when set; otherwise one generated on first start and
 * kept in the data directory, so sessions survive restarts of the embedded marketplace.
 */
export function resolveSessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, 'session-secret');
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : undefined;
  if (existing !== undefined && existing.length >= 32) return existing;
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  try {
    // Read before the data directory's lock is taken (src/server/main.ts): of two servers started
    // at once on a new directory, the first to write wins and the other reads its secret.
    fs.writeFileSync(file, secret, { mode: 0o600, flag: existing === undefined ? 'wx' : 'w' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return resolveSessionSecret(config);
  }
  return secret;
}
