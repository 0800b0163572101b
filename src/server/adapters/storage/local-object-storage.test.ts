import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveUploadSigningKey, LocalObjectStorage } from './local-object-storage';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'local-objects-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let clock = Date.UTC(2030, 0, 1);
const storage = new LocalObjectStorage({ root, signingKey: crypto.randomBytes(32), now: () => clock });

function queryOf(url: string): { expires: string; signature: string } {
  const parsed = new URL(url, 'http://localhost');
  return {
    expires: parsed.searchParams.get('expires') ?? '',
    signature: parsed.searchParams.get('signature') ?? '',
  };
}

describe('LocalObjectStorage presigned URLs', () => {
  it('signs method, key and expiry, and tells an expired URL from a forged one', async () => {
    const url = await storage.presignPut('uploads/a', { expiresInSeconds: 300 });
    expect(url).toMatch(/^\/api\/objects\/local\/uploads\/a\?expires=\d+&signature=[\w-]+$/);
    const { expires, signature } = queryOf(url);
    expect(storage.checkUploadSignature('PUT', 'uploads/a', expires, signature)).toBe('valid');
    expect(storage.checkUploadSignature('PUT', 'uploads/b', expires, signature)).toBe('invalid');
    expect(storage.checkUploadSignature('POST', 'uploads/a', expires, signature)).toBe('invalid');
    expect(storage.checkUploadSignature('PUT', 'uploads/a', String(Number(expires) + 3600), signature)).toBe(
      'invalid',
    );
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect(storage.checkUploadSignature('PUT', 'uploads/a', expires, flipped)).toBe('invalid');
    expect(storage.checkUploadSignature('PUT', 'uploads/a', expires, '')).toBe('invalid');
    expect(storage.checkUploadSignature('PUT', 'uploads/a', 'soon', signature)).toBe('invalid');
    clock += 301_000;
    expect(storage.checkUploadSignature('PUT', 'uploads/a', expires, signature)).toBe('expired');
  });

  it('does not accept another server’s signature', async () => {
    const other = new LocalObjectStorage({
      root,
      signingKey: deriveUploadSigningKey('another secret of 32 characters!!'),
    });
    const { expires, signature } = queryOf(await other.presignPut('uploads/a', { expiresInSeconds: 300 }));
    expect(storage.checkUploadSignature('PUT', 'uploads/a', expires, signature)).toBe('invalid');
  });
});

describe('LocalObjectStorage files', () => {
  it('writes atomically under the root, reads back and deletes', async () => {
    const bytes = Buffer.from('0123456789abcdef');
    await storage.put('uploads/file-1', bytes);
    expect(fs.readdirSync(path.join(root, 'uploads'))).toEqual(['file-1']);
    expect(await storage.head('uploads/file-1')).toEqual({ size: 16 });
    expect(Buffer.from((await storage.readStart('uploads/file-1', 4)) ?? [])).toEqual(Buffer.from('0123'));
    const read = await storage.read('uploads/file-1');
    const chunks: Buffer[] = [];
    for await (const chunk of read!.body) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks)).toEqual(bytes);
    await storage.put('uploads/file-1', Buffer.from('new'));
    expect(await storage.head('uploads/file-1')).toEqual({ size: 3 });
    await storage.delete('uploads/file-1');
    await storage.delete('uploads/file-1');
    expect(await storage.head('uploads/file-1')).toBeNull();
    expect(await storage.readStart('uploads/file-1', 4)).toBeNull();
    expect(await storage.read('uploads/file-1')).toBeNull();
  });

  it('writes new objects in one go, and refuses a key that holds a file already', async () => {
    await storage.putNew([
      { key: 'demo/new-1', bytes: Buffer.from('first'), contentType: 'image/png' },
      { key: 'demo/copies/new-2', bytes: Buffer.from('second'), contentType: 'image/webp' },
    ]);
    expect(await storage.head('demo/new-1')).toEqual({ size: 5 });
    expect(Buffer.from((await storage.readStart('demo/copies/new-2', 16)) ?? [])).toEqual(
      Buffer.from('second'),
    );
    await expect(
      storage.putNew([{ key: 'demo/new-1', bytes: Buffer.from('overwritten'), contentType: 'image/png' }]),
    ).rejects.toThrow(/EEXIST/);
    expect(await storage.head('demo/new-1')).toEqual({ size: 5 });
    await expect(
      storage.putNew([{ key: 'demo/../../escape', bytes: Buffer.from('x'), contentType: 'image/png' }]),
    ).rejects.toThrow('Unsafe object key');
  });

  it('refuses keys that could leave the root', async () => {
    for (const key of ['../etc/passwd', 'uploads/../../x', '/abs', 'uploads/.hidden', 'a//b', '']) {
      await expect(storage.head(key)).rejects.toThrow('Unsafe object key');
      await expect(storage.presignPut(key, { expiresInSeconds: 60 })).rejects.toThrow('Unsafe object key');
    }
  });
});
