import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  claimImageBodySchema,
  detectImageType,
  IMAGE_SIGNATURE_BYTES,
  MAX_UPLOAD_BYTES,
  objectPathOf,
  uploadIdOfObjectPath,
  uploadRequestBodySchema,
  VISIBILITY_OF_PURPOSE,
} from './uploads';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => new TextEncoder().encode(value);
const join = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1);
const WEBP = join(text('RIFF'), bytes(0x24, 0, 0, 0), text('WEBPVP8 '));

describe('detectImageType', () => {
  it('recognises each accepted image by its magic bytes', () => {
    expect(detectImageType(PNG)).toBe('image/png');
    expect(detectImageType(JPEG)).toBe('image/jpeg');
    expect(detectImageType(text('GIF89a\x01\x00\x01\x00'))).toBe('image/gif');
    expect(detectImageType(text('GIF87a\x01\x00\x01\x00'))).toBe('image/gif');
    expect(detectImageType(WEBP)).toBe('image/webp');
  });

  it('refuses text, SVG, HTML, other RIFF files and truncated signatures', () => {
    expect(detectImageType(text('hello, this is not a picture'))).toBeNull();
    expect(detectImageType(text('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(detectImageType(text('<html><script>alert(1)</script></html>'))).toBeNull();
    expect(detectImageType(join(text('RIFF'), bytes(0x24, 0, 0, 0), text('WAVEfmt ')))).toBeNull();
    expect(detectImageType(PNG.subarray(0, 7))).toBeNull();
    expect(detectImageType(WEBP.subarray(0, 11))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
  });

  it('needs no more than IMAGE_SIGNATURE_BYTES to decide', () => {
    for (const image of [PNG, JPEG, WEBP]) {
      expect(detectImageType(image.subarray(0, IMAGE_SIGNATURE_BYTES))).toBe(detectImageType(image));
    }
  });

  it('only looks at the start: what follows never changes the answer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (tail) => {
        expect(detectImageType(join(PNG, tail))).toBe('image/png');
        expect(detectImageType(join(text('plain text '), tail))).toBeNull();
      }),
    );
  });
});

describe('object paths', () => {
  it('round-trips an upload id', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        expect(uploadIdOfObjectPath(objectPathOf(id))).toBe(id);
      }),
    );
  });

  it('refuses anything else', () => {
    for (const value of [
      '/objects/uploads/not-a-uuid',
      'https://evil.example/objects/uploads/0b5c2a8e-6f0e-4f43-9d59-8c0f0e5a3b11',
      '/objects/uploads/0b5c2a8e-6f0e-4f43-9d59-8c0f0e5a3b11/../x',
      '/objects/uploads/0B5C2A8E-6F0E-4F43-9D59-8C0F0E5A3B11',
      '',
    ]) {
      expect(uploadIdOfObjectPath(value)).toBeNull();
      expect(claimImageBodySchema.safeParse({ imageUrl: value }).success).toBe(false);
    }
  });

  it('takes only imageUrl in a claim body', () => {
    const result = claimImageBodySchema.safeParse({
      imageUrl: '/objects/uploads/0b5c2a8e-6f0e-4f43-9d59-8c0f0e5a3b11',
      ownerId: 'x',
    });
    expect(result.success).toBe(false);
  });
});

describe('upload request body', () => {
  it('is optional, and checks a declared type and size', () => {
    expect(uploadRequestBodySchema.safeParse(undefined).success).toBe(true);
    expect(uploadRequestBodySchema.safeParse(null).success).toBe(true);
    expect(uploadRequestBodySchema.safeParse({}).success).toBe(true);
    expect(
      uploadRequestBodySchema.safeParse({ contentType: 'image/png', size: MAX_UPLOAD_BYTES }).success,
    ).toBe(true);
    const tooBig = uploadRequestBodySchema.safeParse({ size: MAX_UPLOAD_BYTES + 1 });
    expect(tooBig.error?.issues[0]?.message).toBe('File exceeds maximum allowed size');
    const notImage = uploadRequestBodySchema.safeParse({ contentType: 'text/html' });
    expect(notImage.error?.issues[0]?.message).toBe(
      'You can only upload: image/jpeg, image/png, image/gif, image/webp',
    );
  });
});

describe('who reads a claimed upload (docs/rules/selling.md, Uploads and who sees a file)', () => {
  it('makes product and profile images public, driver documents owner-only, delivery photos per order', () => {
    expect(VISIBILITY_OF_PURPOSE).toEqual({
      profile: 'public',
      product: 'public',
      vehicle: 'owner',
      trailer: 'owner',
      license: 'owner',
      delivery: 'order',
      'drop-off': 'order',
    });
  });
});
