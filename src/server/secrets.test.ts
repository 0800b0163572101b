import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import webpush from 'web-push';
import { resolveSessionSecret, resolveVapidKeys } from './secrets';

const dirs: string[] = [];
function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-secret-'));
  dirs.push(dir);
  return path.join(dir, 'data');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('resolveSessionSecret', () => {
  it('uses SESSION_SECRET when set and writes nothing', () => {
    const dataDir = newDataDir();
    const secret = 'x'.repeat(40);
    expect(resolveSessionSecret(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret }))).toBe(secret);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('makes one secret on a first start, readable by the owner only, and keeps it across restarts', () => {
    const config = loadConfig({ DATA_DIR: newDataDir() });
    const first = resolveSessionSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(config.dataDir, 'session-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveSessionSecret(config)).toBe(first);
  });

  it('replaces a secret too short to sign with', () => {
    const config = loadConfig({ DATA_DIR: newDataDir() });
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(path.join(config.dataDir, 'session-secret'), 'short');
    const secret = resolveSessionSecret(config);
    expect(secret).not.toBe('short');
    expect(fs.readFileSync(path.join(config.dataDir, 'session-secret'), 'utf8')).toBe(secret);
  });
});

describe('resolveVapidKeys', () => {
  it('uses VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set and writes nothing', () => {
    const dataDir = newDataDir();
    const keys = webpush.generateVAPIDKeys();
    const config = loadConfig({
      DATA_DIR: dataDir,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
    });
    expect(resolveVapidKeys(config)).toEqual(keys);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('refuses one key without the other, never showing the private key', () => {
    const keys = webpush.generateVAPIDKeys();
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(/VAPID_PUBLIC_KEY: is required/);
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: 'not a key' })).toThrow(/VAPID_PRIVATE_KEY: must be/);
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: 'not a key' })).not.toThrow(/not a key/);
  });

  it('makes a pair on a first start that web-push signs with, readable by the owner only, kept across restarts', () => {
    const config = loadConfig({ DATA_DIR: newDataDir() });
    const first = resolveVapidKeys(config);
    expect(fs.statSync(path.join(config.dataDir, 'vapid.json')).mode & 0o777).toBe(0o600);
    expect(resolveVapidKeys(config)).toEqual(first);
    expect(() =>
      webpush.setVapidDetails('mailto:ops@example.com', first.publicKey, first.privateKey),
    ).not.toThrow();
  });
});
