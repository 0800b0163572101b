import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../client';
import { productImages, products, uploadedObjects } from '../schema';
import type { NewObject, ObjectStorage } from '../../adapters/storage/object-storage';
import { detectImageType, objectPathOf } from '../../../domain/uploads';
import type { DEFAULT_CATEGORIES } from '../../../domain/categories';
import { IMAGE_COPY_WIDTHS, type ImageCopyWidth } from '../../../domain/image-copies';
import { copyKeyOf } from '../../modules/uploads/image-copies';
import manifest from './images/manifest.json';

/**
 * The demo catalog (docs/rules/running.md, Running modes and adapters): about 280
 * products over every category and the demo sellers, each with a picture drawn by
 * scripts/generate-demo-images.mjs (a studio shot as `imageUrl`, and one or two extras: on a table,
 * close up). Deterministic: a seeded generator picks names, prices, stock and options, so every
 * fresh database gets the same catalog.
 */

/** mulberry32: small, fast and good enough to vary demo data the same way each time. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type KindKey = keyof typeof manifest.kinds;
type DefaultCategory = (typeof DEFAULT_CATEGORIES)[number];

interface KindCopy {
  /** Product names; `{c}` is the colourway (the picture shows it). */
  names: string[];
  description: string;
  /** Price range in dollars. */
  price: [number, number];
  /** Units in stock when not sold out. */
  stock: [number, number];
  /** Trailer items cost 50.00 to deliver (docs/rules/catalog-and-orders.md, Checkout and orders). */
  trailer?: 'always' | 'sometimes';
}

/** Every kind the generator draws has its words here (checked by the compiler). */
const KIND_COPY = {
  headphones: {
    names: ['{c} Wireless Headphones', '{c} Over-Ear Headphones', 'Noise-Cancelling Headphones ({c})'],
    description:
      'Closed-back over-ear headphones with memory-foam cushions, a folding headband and about 30 hours of battery. Colour: {c}.',
    price: [39, 249],
    stock: [2, 15],
  },
  laptop: {
    names: ['13" Ultrabook, {c}', '{c} 15" Laptop', 'Refurbished {c} Notebook'],
    description:
      'Light laptop with a bright IPS display, 16 GB of memory and a 512 GB SSD. Reset to factory settings; charger included. Finish: {c}.',
    price: [299, 1299],
    stock: [1, 4],
  },
  smartphone: {
    names: ['Unlocked Smartphone, {c}', '{c} 128 GB Phone', 'Refurbished {c} Smartphone'],
    description:
      'Unlocked 6.1" smartphone with 128 GB of storage, a dual camera and a new battery. Tested and wiped, with a case in the box. Colour: {c}.',
    price: [149, 799],
    stock: [1, 6],
  },
  speaker: {
    names: ['{c} Bluetooth Speaker', 'Bookshelf Speaker ({c})', '{c} Party Speaker'],
    description:
      'A speaker with a rich low end and clear voices, Bluetooth 5.3, a 3.5 mm input and 12 hours of play. Colour: {c}.',
    price: [29, 349],
    stock: [2, 12],
  },
  chair: {
    names: ['{c} Dining Chair', 'Mid-Century {c} Side Chair', '{c} Accent Chair', '{c} Café Chair'],
    description:
      'A solid hardwood chair with an upholstered seat and back, made by hand in a small Chicago workshop. Seat height 18". Finish: {c}.',
    price: [49, 289],
    stock: [1, 8],
  },
  sofa: {
    names: ['{c} Three-Seat Sofa', '{c} Loveseat', 'Mid-Century {c} Sofa'],
    description:
      'A deep, comfortable sofa with a kiln-dried frame, removable cushion covers and tapered wooden legs. 84" wide. Fabric: {c}.',
    price: [399, 1499],
    stock: [1, 3],
    trailer: 'always',
  },
  table: {
    names: ['{c} Dining Table', '{c} Farmhouse Table', '{c} Writing Desk', 'Round {c} Bistro Table'],
    description:
      'A sturdy table with a planed top and a hand-rubbed oil finish; seats four to six. Assembly takes ten minutes. Wood: {c}.',
    price: [129, 899],
    stock: [1, 4],
    trailer: 'sometimes',
  },
  bookshelf: {
    names: ['{c} Bookshelf', '5-Shelf {c} Bookcase', '{c} Ladder Shelf'],
    description:
      'A tall bookcase with adjustable shelves that each hold 40 lb, and a wall anchor kit. 72" × 32" × 12". Finish: {c}.',
    price: [89, 459],
    stock: [1, 5],
    trailer: 'sometimes',
  },
  plant: {
    names: ['Snake Plant in {c} Pot', 'Aloe in a {c} Planter', 'Potted Fern, {c} Pot'],
    description:
      'A healthy, easy-care houseplant grown in our greenhouse, in a 6" pot with a drainage hole. Pot: {c}.',
    price: [14, 69],
    stock: [3, 25],
  },
  lamp: {
    names: ['{c} Table Lamp', '{c} Bedside Lamp', 'Ceramic Lamp, {c} Shade'],
    description:
      'A warm table lamp with a fabric shade, a weighted base and an in-line switch. Takes one E26 bulb (included). Shade: {c}.',
    price: [24, 129],
    stock: [2, 12],
  },
  wateringCan: {
    names: ['{c} Watering Can (2 gal)', '{c} Garden Watering Can'],
    description:
      'A rust-proof watering can with a long spout and a removable rose for seedlings. Holds 2 gallons. Colour: {c}.',
    price: [15, 45],
    stock: [3, 20],
  },
  teapot: {
    names: ['{c} Ceramic Teapot', 'Stoneware Teapot, {c}'],
    description:
      'A hand-thrown stoneware teapot with a stainless infuser; holds four cups. Dishwasher safe. Glaze: {c}.',
    price: [19, 59],
    stock: [2, 10],
  },
  fruitBasket: {
    names: ['{c} Basket (3 lb)', '{c} Family Box (10 lb)', 'Farm Stand {c} Bag (5 lb)'],
    description: 'Picked this week at a family orchard in Michigan: crisp, juicy and unwaxed. Variety: {c}.',
    price: [6, 29],
    stock: [5, 40],
  },
  bread: {
    names: ['{c} Loaf', 'Fresh {c} Bread', 'Rustic {c} Boule'],
    description:
      'Baked this morning from organic flour and a long, slow rise. Best within three days. Style: {c}.',
    price: [5, 12],
    stock: [4, 24],
  },
  coffee: {
    names: ['{c} Coffee Beans (12 oz)', 'Whole Bean {c} (2 lb)', '{c} Espresso Blend'],
    description:
      'Small-batch coffee roasted in Pilsen every Monday; notes of cocoa, toffee and orange. Whole beans. Roast: {c}.',
    price: [11, 34],
    stock: [5, 40],
  },
  honey: {
    names: ['Raw {c} Honey (16 oz)', '{c} Honey Jar with Dipper', 'Local {c} Honey (32 oz)'],
    description:
      'Raw, unfiltered honey from hives on the North Side, in a glass jar. It crystallises naturally; warm gently to loosen. Variety: {c}.',
    price: [9, 26],
    stock: [5, 30],
  },
  tshirt: {
    names: ['{c} Cotton T-Shirt', 'Organic Tee, {c}', '{c} Crew Neck Tee'],
    description: 'A soft, heavyweight organic cotton tee, pre-shrunk, in sizes S to XXL. Colour: {c}.',
    price: [12, 35],
    stock: [4, 30],
  },
  sneaker: {
    names: ['{c} Running Sneakers', '{c} Canvas Low-Tops', 'Trail Sneakers, {c}'],
    description:
      'Light, breathable sneakers with a cushioned sole and a grippy outsole, in US sizes 6 to 13. Colour: {c}.',
    price: [39, 139],
    stock: [2, 14],
  },
  beanie: {
    names: ['{c} Knit Beanie', 'Merino {c} Beanie', '{c} Cuffed Beanie'],
    description:
      'A warm rib-knit beanie with a fold-over cuff, knitted from merino wool. One size. Colour: {c}.',
    price: [12, 35],
    stock: [4, 25],
  },
  tote: {
    names: ['{c} Canvas Tote', 'Market Tote, {c}', '{c} Everyday Tote Bag'],
    description:
      'A roomy tote in heavy 14 oz canvas with long handles and an inside pocket; holds a week of groceries. Colour: {c}.',
    price: [14, 45],
    stock: [4, 25],
  },
  hammer: {
    names: ['16 oz {c} Claw Hammer', '{c} Framing Hammer', 'Finishing Hammer, {c} Handle'],
    description:
      'A balanced hammer with a forged steel head, a magnetic nail starter and a shock-absorbing grip. Handle: {c}.',
    price: [12, 45],
    stock: [3, 20],
  },
  wrench: {
    names: ['{c} Adjustable Wrench', '{c} Combination Wrench Set', '10" {c} Pipe Wrench'],
    description:
      'Drop-forged chrome vanadium steel with a smooth worm gear and laser-etched scales. Finish: {c}.',
    price: [12, 69],
    stock: [3, 20],
  },
  drill: {
    names: ['20V Cordless Drill, {c}', '{c} Hammer Drill Kit', 'Compact {c} Drill/Driver'],
    description:
      'A 20 V brushless drill/driver with two batteries, a fast charger, an LED work light and a carry bag. Colour: {c}.',
    price: [59, 229],
    stock: [1, 8],
  },
  toolbox: {
    names: ['{c} Toolbox', '{c} Tool Chest', '19" {c} Toolbox with Tray'],
    description: 'A steel toolbox with a lift-out tray, a padlock eye and a comfortable handle. Colour: {c}.',
    price: [24, 149],
    stock: [2, 10],
  },
  bicycle: {
    names: ['{c} Road Bike', '{c} City Bike', 'Hybrid Bike, {c}'],
    description:
      'A tuned-up bike with new tyres, brake pads and chain; a 21-speed drivetrain and an aluminium frame (size M). Colour: {c}.',
    price: [199, 899],
    stock: [1, 3],
  },
  tent: {
    names: ['2-Person {c} Tent', '{c} Dome Tent (4-Person)', 'Backpacking Tent, {c}'],
    description:
      'A freestanding tent with a full rain fly, two doors and taped seams; sets up in five minutes. Colour: {c}.',
    price: [69, 299],
    stock: [1, 6],
  },
  ball: {
    names: ['{c} Basketball', 'Outdoor {c} Basketball (Size 7)'],
    description:
      'A durable composite basketball with deep channels for grip, indoors or out. Official size 7. Colour: {c}.',
    price: [19, 49],
    stock: [3, 20],
  },
  backpack: {
    names: ['{c} Daypack (25 L)', '{c} Hiking Backpack', 'Commuter Backpack, {c}'],
    description:
      'A water-resistant pack with a padded laptop sleeve, side bottle pockets and a ventilated back. Colour: {c}.',
    price: [29, 149],
    stock: [2, 12],
  },
  bricks: {
    names: ['{c} Clay Bricks (pallet of 500)', 'Reclaimed {c} Bricks (100)', '{c} Paver Bricks (50)'],
    description: 'Solid fired-clay bricks, 2¼" × 3⅝" × 7⅝", cleaned and stacked on a pallet. Colour: {c}.',
    price: [45, 599],
    stock: [1, 10],
    trailer: 'always',
  },
  lumber: {
    names: ['{c} 2x4 Studs (bundle of 20)', '{c} Deck Boards (10)', '{c} Fence Pickets (25)'],
    description:
      'Kiln-dried, straight and ready to build with; 8 ft lengths, banded for loading. Species: {c}.',
    price: [49, 399],
    stock: [1, 12],
    trailer: 'always',
  },
  paintCan: {
    names: ['{c} Interior Paint (1 gal)', '{c} Exterior Paint (5 gal)', 'Eggshell {c} (1 qt)'],
    description: 'Low-VOC acrylic paint and primer in one, covering about 400 sq ft per gallon. Colour: {c}.',
    price: [14, 189],
    stock: [2, 30],
  },
  cementBag: {
    names: ['{c} Cement (94 lb)', '{c} Concrete Mix (80 lb)', '{c} (50 lb bag)'],
    description: 'A contractor-grade bag for footings, posts, slabs and repairs; just add water. Type: {c}.',
    price: [8, 29],
    stock: [5, 60],
    trailer: 'sometimes',
  },
  book: {
    names: ['Hardcover Mystery Novel ({c} Edition)', 'Classic Poetry Collection, {c} Cloth', 'The {c} Atlas'],
    description: 'A hardcover in fine condition with a clean text block and an intact binding. Cover: {c}.',
    price: [9, 39],
    stock: [1, 6],
  },
  bookStack: {
    names: ['Bundle of 4 Paperbacks ({c})', 'Cookbook Set, {c} Covers', '{c} Fantasy Series Box'],
    description: 'A bundle of gently read books, hand-picked and wrapped together. Covers: {c}.',
    price: [19, 59],
    stock: [1, 5],
  },
  openBook: {
    names: [
      'Illustrated Field Guide, {c} Cover',
      'Chicago Architecture Book ({c})',
      'Family Cookbook, {c} Binding',
    ],
    description: 'A richly illustrated book that lies flat when open; a lovely gift. Binding: {c}.',
    price: [14, 45],
    stock: [1, 8],
  },
  journal: {
    names: ['{c} Journal (A5, dotted)', '{c} Notebook with Ribbon', 'Refillable {c} Journal'],
    description:
      'A lay-flat journal with 192 pages of 100 gsm paper, an elastic band and a ribbon marker. Cover: {c}.',
    price: [12, 39],
    stock: [3, 25],
  },
  teddyBear: {
    names: ['{c} Teddy Bear (14")', 'Classic {c} Plush Bear', 'Jumbo {c} Teddy'],
    description:
      'A huggable, hand-stitched bear with safety eyes, tested for all ages. Surface washable. Fur: {c}.',
    price: [15, 59],
    stock: [2, 15],
  },
  blocks: {
    names: ['{c} Wooden Block Set (40 pcs)', '{c} Stacking Blocks', 'Alphabet Blocks, {c}'],
    description:
      'Smooth maple blocks finished with child-safe, water-based paint, in a cotton bag. Colours: {c}.',
    price: [19, 49],
    stock: [2, 15],
  },
  kite: {
    names: ['{c} Diamond Kite', '{c} Stunt Kite', 'Beach Kite, {c}'],
    description:
      'A rip-stop nylon kite with fibreglass spars and 100 ft of line; flies in light wind off the lake. Colours: {c}.',
    price: [12, 45],
    stock: [2, 15],
  },
  dice: {
    names: ['{c} Dice Set (7 pcs)', 'Board Game Night: {c} Dice', '{c} Jumbo Dice (3)'],
    description: 'Weighted resin dice with deep, crisp pips in a drawstring pouch. Colour: {c}.',
    price: [6, 24],
    stock: [3, 30],
  },
} satisfies Record<KindKey, KindCopy>;
const copyOfKind = new Map<string, KindCopy>(Object.entries(KIND_COPY));

/** The demo sellers and what they sell (by email; demo.ts creates the accounts). */
export const DEMO_SELLER_CATEGORIES: Record<string, readonly DefaultCategory[]> = {
  'seller@example.com': ['Electronics', 'Home & Garden', 'Books', 'Toys & Games'],
  'seller2@example.com': ['Furniture', 'Building Materials', 'Tools & Hardware'],
  'seller3@example.com': ['Groceries', 'Home & Garden', 'Clothing'],
  'seller4@example.com': ['Clothing', 'Sports & Outdoors', 'Toys & Games'],
  'seller5@example.com': ['Electronics', 'Books', 'Sports & Outdoors'],
  'seller6@example.com': ['Tools & Hardware', 'Building Materials', 'Furniture'],
  'admin@example.com': ['Groceries'],
};
/** Sellers who also deliver some of their products themselves. */
const SELF_DELIVERING = new Set(['seller@example.com', 'seller3@example.com', 'seller6@example.com']);

export interface PlannedProduct {
  sellerEmail: string;
  name: string;
  description: string;
  price: string;
  category: string;
  stock: number;
  available: boolean;
  requiresTrailer: boolean;
  sellerDelivery: boolean;
  sellerDeliveryFee: string | null;
  offerPickup: boolean;
  createdAt: Date;
  /** Image files: the first is the main picture, the others are the extras in display order. */
  imageFiles: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Fisher–Yates with the seeded generator. */
function shuffle<T>(list: readonly T[], rand: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const a = out[i];
    const b = out[j];
    if (a === undefined || b === undefined) continue;
    out[i] = b;
    out[j] = a;
  }
  return out;
}

/** The catalog, decided by the seeded generator alone (the same on every fresh database). */
export function planDemoProducts(now: Date): PlannedProduct[] {
  const rand = seededRandom(20_240_611);
  const pick = <T>(list: readonly T[]): T => {
    const item = list[Math.floor(rand() * list.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  const planned: PlannedProduct[] = [];
  for (const [key, kind] of Object.entries(manifest.kinds)) {
    const copy = copyOfKind.get(key);
    if (!copy) throw new Error(`No words for the demo product kind ${key}`);
    const category = kind.category;
    const sellers = Object.entries(DEMO_SELLER_CATEGORIES)
      .filter(([, categories]) => categories.some((c) => c === category))
      .map(([email]) => email);
    for (const colourway of kind.colourways) {
      // Two or three products of each kind and colourway, with different names.
      const count = Math.min(copy.names.length, rand() < 0.4 ? 3 : 2);
      const names = shuffle(copy.names, rand).slice(0, count);
      for (const template of names) {
        const sellerEmail = pick(sellers);
        const requiresTrailer = copy.trailer === 'always' || (copy.trailer === 'sometimes' && rand() < 0.5);
        const sellerDelivery = SELF_DELIVERING.has(sellerEmail) && rand() < 0.4;
        const [low, high] = copy.price;
        const dollars = Math.max(1, Math.round(low + rand() * (high - low)));
        const [fewest, most] = copy.stock;
        const extras = rand() < 0.35 ? 1 : 2;
        planned.push({
          sellerEmail,
          name: template.replace('{c}', colourway.label),
          description: copy.description.replace('{c}', colourway.label),
          // Shop prices: 24.99, 129.99; the cheapest end in .49 or .99.
          price: (dollars - (dollars < 10 && rand() < 0.5 ? 0.51 : 0.01)).toFixed(2),
          category,
          // About one product in twelve is sold out ("Out of Stock";
          // docs/rules/catalog-and-orders.md, Catalog and distance).
          stock: rand() < 0.08 ? 0 : fewest + Math.floor(rand() * (most - fewest + 1)),
          // A few were cancelled by their seller: visible to them and in old orders, not in lists.
          available: rand() >= 0.02,
          requiresTrailer,
          sellerDelivery,
          sellerDeliveryFee: sellerDelivery
            ? pick(requiresTrailer ? ['35.00', '45.00'] : ['4.99', '5.99', '7.50'])
            : null,
          offerPickup: rand() < (category === 'Groceries' ? 0.7 : 0.4),
          // Listed over the last 60 days, to the second.
          createdAt: new Date(now.getTime() - Math.floor((rand() * 60 * DAY_MS) / 1000) * 1000),
          imageFiles: colourway.files.slice(0, 1 + extras),
        });
      }
    }
  }
  return planned;
}

/** Where the drawn pictures live, found from this file both in src/ and in the bundled dist/. */
export function demoImagesFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'src/server/db/seed/images');
    dir = path.dirname(dir);
  }
  throw new Error('Cannot find the project root (package.json) to locate the demo images');
}

/**
 * The resized copies of the demo pictures (docs/decisions/0014-first-load.md, Resized copies) are
 * made once, at build time (`npm run build`), into dist/demo-image-copies beside the built server:
 * the seed then only copies files, so a first start neither loads the image library nor spends
 * seconds resizing. The server run from src/ (tests) has none, and serves the demo pictures whole.
 */
export function demoImageCopiesFolder(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const isBuilt = path.basename(here) === 'server' && path.basename(path.dirname(here)) === 'dist';
  return isBuilt ? path.join(here, '..', 'demo-image-copies') : null;
}

export function demoImageCopyFile(pictureFile: string, width: ImageCopyWidth): string {
  return `${path.basename(pictureFile, path.extname(pictureFile))}-w${width}.webp`;
}

export interface StoredDemoImage {
  id: string;
  key: string;
  objectPath: string;
  size: number;
  contentType: string;
}

/**
 * Copies each picture of each product into the object store under a new upload id, as if its
 * seller had uploaded it (docs/rules/selling.md, Uploads and who sees a file): one object per use,
 * so a seller's later change to one product never touches another's picture. Answers the pictures
 * at once, and `stored` once they are all in the store: the seed's rows, which name them, are
 * made meanwhile and committed only after it (docs/decisions/0016-embedded-database-process.md,
 * Start-up).
 */
export function storeDemoImages(
  storage: ObjectStorage,
  plan: PlannedProduct[],
): { images: StoredDemoImage[][]; stored: Promise<void> } {
  const folder = demoImagesFolder();
  const cache = new Map<string, { bytes: Buffer; contentType: string }>();
  const read = (file: string) => {
    let entry = cache.get(file);
    if (!entry) {
      const bytes = fs.readFileSync(path.join(folder, file));
      const contentType = detectImageType(bytes);
      if (!contentType) throw new Error(`Demo image ${file} is not an image`);
      entry = { bytes, contentType };
      cache.set(file, entry);
    }
    return entry;
  };
  // The resized copies made at build time, when there are (docs/decisions/0014-first-load.md,
  // Resized copies), of each product's main picture: the one its card shows. The extra pictures
  // are served whole, which keeps the files a first start writes to about 850 more.
  const copiesFolder = demoImageCopiesFolder();
  const copiesOf = (file: string) =>
    IMAGE_COPY_WIDTHS.flatMap((width) => {
      if (!copiesFolder) return [];
      const copyFile = path.join(copiesFolder, demoImageCopyFile(file, width));
      return fs.existsSync(copyFile) ? [{ width, bytes: fs.readFileSync(copyFile) }] : [];
    });
  const copyCache = new Map<string, { width: ImageCopyWidth; bytes: Buffer }[]>();
  const objects: NewObject[] = [];
  const images = plan.map((product) =>
    product.imageFiles.map((file, slot) => {
      const { bytes, contentType } = read(file);
      const id = crypto.randomUUID();
      const key = `uploads/${id}`;
      let copies = slot === 0 ? copyCache.get(file) : [];
      if (!copies) {
        copies = copiesOf(file);
        copyCache.set(file, copies);
      }
      objects.push(
        { key, bytes, contentType },
        ...copies.map((copy) => ({
          key: copyKeyOf(key, copy.width),
          bytes: copy.bytes,
          contentType: 'image/webp',
        })),
      );
      return { id, key, objectPath: objectPathOf(id), size: bytes.length, contentType };
    }),
  );
  const stored = storage.putNew(objects);
  return { images, stored };
}

export type DemoProductRow = typeof products.$inferSelect;

/** Inserts the planned products, their pictures' upload records and extra images; returns the products. */
export async function insertDemoProducts(
  tx: Db,
  plan: PlannedProduct[],
  images: StoredDemoImage[][],
  sellerIdOf: (email: string) => string,
  now: Date,
): Promise<DemoProductRow[]> {
  const objectRows: (typeof uploadedObjects.$inferInsert)[] = [];
  const productRows: (typeof products.$inferInsert)[] = [];
  const imageRows: (typeof productImages.$inferInsert)[] = [];
  plan.forEach((product, index) => {
    const sellerId = sellerIdOf(product.sellerEmail);
    const id = crypto.randomUUID();
    const [main, ...extras] = images[index] ?? [];
    for (const image of images[index] ?? [])
      objectRows.push({
        id: image.id,
        key: image.key,
        ownerId: sellerId,
        contentType: image.contentType,
        size: image.size,
        visibility: 'public',
        uploadedAt: now,
      });
    const { sellerEmail: _email, imageFiles: _files, ...fields } = product;
    productRows.push({
      ...fields,
      id,
      sellerId,
      imageUrl: main?.objectPath ?? null,
      updatedAt: product.createdAt,
    });
    extras.forEach((image, displayOrder) =>
      imageRows.push({ productId: id, imageUrl: image.objectPath, displayOrder }),
    );
  });
  // Batches keep every statement well under the 65,535 bind parameters of the protocol.
  for (let i = 0; i < objectRows.length; i += 500)
    await tx.insert(uploadedObjects).values(objectRows.slice(i, i + 500));
  const inserted: DemoProductRow[] = [];
  for (let i = 0; i < productRows.length; i += 200)
    inserted.push(
      ...(await tx
        .insert(products)
        .values(productRows.slice(i, i + 200))
        .returning()),
    );
  for (let i = 0; i < imageRows.length; i += 500)
    await tx.insert(productImages).values(imageRows.slice(i, i + 500));
  return inserted;
}
