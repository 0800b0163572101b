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

/** Web Push's VAPID key pair, base64url (docs/decisions/0019-reaching-people.md, Push and the installable app). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** A new P-256 key pair in the form web-push and PushManager.subscribe take. */
export function generateVapidKeys(): VapidKeys {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const privateKey = Buffer.alloc(32);
  const raw = ecdh.getPrivateKey();
  raw.copy(privateKey, 32 - raw.length);
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: privateKey.toString('base64url'),
  };
}

function isVapidKeys(value: unknown): value is VapidKeys {
  const keys = value as Partial<VapidKeys> | null;
  return typeof keys?.publicKey === 'string' && typeof keys.privateKey === 'string';
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set; otherwise a pair generated on first start and
 * kept in DATA_DIR/vapid.json (mode 0600), so browsers' subscriptions outlive restarts: a new pair
 * would make every subscription useless.
 */
export function resolveVapidKeys(config: Config): VapidKeys {
  if (config.vapid) return config.vapid;
  const file = path.join(config.dataDir, 'vapid.json');
  if (fs.existsSync(file)) {
    const existing: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (isVapidKeys(existing)) return existing;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const keys = generateVapidKeys();
  try {
    // As the session secret: of two servers started at once, the first to write wins.
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: fs.existsSync(file) ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return resolveVapidKeys(config);
  }
  return keys;
}
