import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { uploadedObjects } from '../schema';
import type { NewObject, ObjectStorage } from '../../adapters/storage/object-storage';
import { objectPathOf } from '../../../domain/uploads';

/**
 * The demo drivers' documents (docs/rules/deliveries.md, Deliveries): a driver is verified only with a
 * vehicle and a license image on file and an admin's approval, so the approved demo drivers get
 * both, and a trailer picture, drawn here as simple pictures (no photo of a real person or
 * document). Stored like any upload claimed for that use: readable by the driver and admins only.
 */

type Rgb = readonly [number, number, number];

/** A small raster with the two shapes the pictures need. */
class Canvas {
  readonly pixels: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = Buffer.alloc(width * height * 3);
    this.rect(0, 0, width, height, background);
  }

  rect(x: number, y: number, w: number, h: number, rgb: Rgb): this {
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row++)
      for (let col = Math.max(0, x); col < Math.min(this.width, x + w); col++)
        this.pixels.set(rgb, (row * this.width + col) * 3);
    return this;
  }

  circle(cx: number, cy: number, r: number, rgb: Rgb): this {
    for (let row = cy - r; row <= cy + r; row++)
      for (let col = cx - r; col <= cx + r; col++)
        if ((row - cy) ** 2 + (col - cx) ** 2 <= r * r) this.rect(col, row, 1, 1, rgb);
    return this;
  }

  /** 8-bit RGB PNG, no filter. */
  png(): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8;
    header[9] = 2;
    const rows: Buffer[] = [];
    for (let row = 0; row < this.height; row++)
      rows.push(Buffer.from([0]), this.pixels.subarray(row * this.width * 3, (row + 1) * this.width * 3));
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

const SKY: Rgb = [214, 234, 248];
const ROAD: Rgb = [90, 98, 110];
const TYRE: Rgb = [30, 32, 36];
const HUB: Rgb = [200, 204, 210];
const GLASS: Rgb = [160, 200, 230];

function van(body: Rgb): Buffer {
  const c = new Canvas(320, 200, SKY).rect(0, 160, 320, 40, ROAD);
  c.rect(40, 70, 170, 80, body).rect(210, 95, 70, 55, body).rect(222, 102, 44, 26, GLASS);
  for (const x of [85, 235]) c.circle(x, 152, 20, TYRE).circle(x, 152, 8, HUB);
  return c.png();
}

function license(accent: Rgb): Buffer {
  const c = new Canvas(320, 200, [236, 238, 242]).rect(0, 0, 320, 44, accent);
  c.rect(24, 64, 88, 108, [188, 196, 208])
    .circle(68, 100, 22, [150, 160, 176])
    .rect(40, 128, 56, 40, [150, 160, 176]);
  for (const [y, w] of [
    [70, 170],
    [96, 140],
    [122, 160],
    [148, 110],
  ] as const)
    c.rect(132, y, w, 10, [120, 128, 140]);
  return c.png();
}

function trailer(body: Rgb): Buffer {
  const c = new Canvas(320, 200, SKY).rect(0, 160, 320, 40, ROAD);
  c.rect(30, 90, 230, 52, body).rect(260, 126, 50, 8, [60, 64, 70]);
  c.rect(50, 62, 70, 28, [176, 124, 76]).rect(130, 70, 60, 20, [176, 124, 76]);
  for (const x of [120, 170]) c.circle(x, 150, 16, TYRE).circle(x, 150, 6, HUB);
  return c.png();
}

/**
 * Pictures by driver: every approved demo driver gets a vehicle, a license and a trailer. Drawn
 * when a seed stores them, not when the server loads this module (about 0.2 s of every start;
 * docs/decisions/0016-embedded-database-process.md, Start-up).
 */
function drawPictures() {
  return {
    vehicle: [van([34, 139, 87]), van([52, 101, 178])],
    license: [license([34, 139, 87]), license([52, 101, 178])],
    trailer: [trailer([120, 126, 136]), trailer([160, 90, 60])],
  } as const;
}

type Kind = keyof ReturnType<typeof drawPictures>;
const FIELD: Record<Kind, 'vehicleImageUrl' | 'licenseImageUrl' | 'trailerImageUrl'> = {
  vehicle: 'vehicleImageUrl',
  license: 'licenseImageUrl',
  trailer: 'trailerImageUrl',
};

interface StoredPicture {
  id: string;
  key: string;
  size: number;
  kind: Kind;
}

/**
 * Puts the pictures of `count` drivers in the store; like the products' (storeDemoImages in
 * demo-products.ts), answers them at once and `stored` once they are in the store.
 */
export function storeDemoDriverImages(
  storage: ObjectStorage,
  count: number,
): { pictures: StoredPicture[][]; stored: Promise<void> } {
  const drawn = drawPictures();
  const objects: NewObject[] = [];
  const pictures = Array.from({ length: count }, (_, driver) =>
    (Object.keys(drawn) as Kind[]).flatMap((kind) => {
      const bytes = drawn[kind][driver % drawn[kind].length];
      if (!bytes) return [];
      const id = crypto.randomUUID();
      const key = `uploads/${id}`;
      objects.push({ key, bytes, contentType: 'image/png' });
      return [{ id, key, size: bytes.length, kind }];
    }),
  );
  return { pictures, stored: storage.putNew(objects) };
}

/**
 * The driver's pictures as their claimed uploads, and the driver's fields that name them; the
 * seed inserts them with the other demo rows (src/server/db/seed/demo.ts).
 */
export function demoDriverImageRecords(
  driverId: string,
  pictures: readonly StoredPicture[],
  now: Date,
): {
  objects: (typeof uploadedObjects.$inferInsert)[];
  fields: Partial<Record<(typeof FIELD)[Kind], string>>;
} {
  const objects = pictures.map((picture) => ({
    id: picture.id,
    key: picture.key,
    ownerId: driverId,
    contentType: 'image/png',
    size: picture.size,
    visibility: 'owner' as const,
    uploadedAt: now,
  }));
  const fields: Partial<Record<(typeof FIELD)[Kind], string>> = {};
  for (const picture of pictures) fields[FIELD[picture.kind]] = objectPathOf(picture.id);
  return { objects, fields };
}
