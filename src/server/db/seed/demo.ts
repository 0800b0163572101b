import crypto from 'node:crypto';
import { count } from 'drizzle-orm';
import type { Db } from '../client';
import {
  addresses,
  availabilitySchedules,
  blackoutDates,
  categories,
  commissionSettings,
  passwordCredentials,
  uploadedObjects,
  users,
} from '../schema';
import { ZipCentroidGeocoder } from '../../adapters/geocoding/zip-centroid-geocoder';
import type { GeocodeResult } from '../../adapters/geocoding/geocoder';
import { DEFAULT_CATEGORIES } from '../../../domain/categories';
import type { Role } from '../../../domain/roles';
import { hashPassword } from '../../modules/auth/passwords';
import type { ObjectStorage } from '../../adapters/storage/object-storage';
import { insertDemoProducts, planDemoProducts, storeDemoImages } from './demo-products';
import { seedDemoOrders } from './demo-orders';
import { demoDriverImageRecords, storeDemoDriverImages } from './demo-driver-images';

/**
 * The password of every demo account; printed at start-up
 * (docs/rules/running.md, Running modes and adapters).
 */
export const DEMO_PASSWORD = 'demo1234';

/** A real street in the Chicago metro area; coordinates come from the ZIP centroid at seed time. */
interface DemoAddress {
  addressLine1: string;
  city: string;
  state: string;
  zipCode: string;
}

export interface DemoAccount {
  address: DemoAddress;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  roles: Role[];
  isVerified?: boolean;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    email: 'admin@example.com',
    firstName: 'Avery',
    lastName: 'Admin',
    role: 'admin',
    roles: ['buyer', 'seller', 'driver', 'admin'],
    address: { addressLine1: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zipCode: '60606' },
  },
  {
    email: 'buyer@example.com',
    firstName: 'Bailey',
    lastName: 'Buyer',
    role: 'buyer',
    roles: ['buyer'],
    address: { addressLine1: '1060 W Addison St', city: 'Chicago', state: 'IL', zipCode: '60613' },
  },
  {
    email: 'buyer2@example.com',
    firstName: 'Casey',
    lastName: 'Carter',
    role: 'buyer',
    roles: ['buyer'],
    address: { addressLine1: '1603 Orrington Ave', city: 'Evanston', state: 'IL', zipCode: '60201' },
  },
  {
    email: 'seller@example.com',
    firstName: 'Sam',
    lastName: 'Seller',
    role: 'seller',
    roles: ['buyer', 'seller'],
    address: { addressLine1: '700 E Grand Ave', city: 'Chicago', state: 'IL', zipCode: '60611' },
  },
  {
    email: 'seller2@example.com',
    firstName: 'Morgan',
    lastName: 'Maker',
    role: 'seller',
    roles: ['buyer', 'seller'],
    address: { addressLine1: '100 Oakbrook Center', city: 'Oak Brook', state: 'IL', zipCode: '60523' },
  },
  {
    email: 'seller3@example.com',
    firstName: 'Priya',
    lastName: 'Patel',
    role: 'seller',
    roles: ['buyer', 'seller'],
    address: { addressLine1: '22 W Jefferson Ave', city: 'Naperville', state: 'IL', zipCode: '60540' },
  },
  {
    email: 'seller4@example.com',
    firstName: 'Luis',
    lastName: 'Ortega',
    role: 'seller',
    roles: ['buyer', 'seller'],
    address: { addressLine1: '1010 Lake St', city: 'Oak Park', state: 'IL', zipCode: '60302' },
  },
  {
    email: 'seller5@example.com',
    firstName: 'Grace',
    lastName: 'Kim',
    role: 'seller',
    roles: ['buyer', 'seller'],
    address: { addressLine1: '5 Woodfield Mall', city: 'Schaumburg', state: 'IL', zipCode: '60173' },
  },
  {
    email: 'seller6@example.com',
    firstName: 'Tom',
    lastName: 'Novak',
    role: 'seller',
    roles: ['buyer', 'seller'],
    address: { addressLine1: '4999 Old Orchard Rd', city: 'Skokie', state: 'IL', zipCode: '60077' },
  },
  {
    email: 'driver@example.com',
    firstName: 'Drew',
    lastName: 'Driver',
    role: 'driver',
    roles: ['buyer', 'driver'],
    isVerified: true,
    address: { addressLine1: '2100 S Wabash Ave', city: 'Chicago', state: 'IL', zipCode: '60616' },
  },
  {
    email: 'driver2@example.com',
    firstName: 'Riley',
    lastName: 'Rhodes',
    role: 'driver',
    roles: ['buyer', 'driver'],
    isVerified: true,
    address: { addressLine1: '5700 S Lake Shore Dr', city: 'Chicago', state: 'IL', zipCode: '60637' },
  },
];

/** Settings and categories every marketplace needs, demo or not; idempotent. */
export async function seedEssentials(db: Db): Promise<void> {
  await db.insert(commissionSettings).values({ id: 1 }).onConflictDoNothing();
  const [row] = await db.select({ n: count() }).from(categories);
  if ((row?.n ?? 0) === 0) {
    await db.insert(categories).values(DEFAULT_CATEGORIES.map((name) => ({ name })));
  }
}

export interface SeedDemoOptions {
  /**
   * Where the products' pictures go: the store the server reads uploads from
   * (docs/rules/running.md, Running modes and adapters; docs/rules/selling.md, Uploads and who sees a file).
   */
  storage: ObjectStorage;
  /** The clock; products are listed over the 60 days before it. */
  now?: Date;
  /**
   * What needs no database, already being made by `prepareDemoData` while the database starts
   * (src/server/main.ts); made here when absent.
   */
  prepared?: Promise<PreparedDemoData>;
}

/**
 * The demo marketplace's pictures, the products they belong to, the accounts' password hash and
 * their addresses' coordinates.
 */
export interface PreparedDemoData {
  now: Date;
  productPlan: ReturnType<typeof planDemoProducts>;
  pictures: ReturnType<typeof storeDemoImages>['images'];
  driverPictures: ReturnType<typeof storeDemoDriverImages>['pictures'];
  /** Settles once every picture is in the store (or one could not be put there). */
  stored: Promise<void>;
  passwordHash: string;
  /** By email; null where the ZIP centroid geocoder knows no place. */
  locations: Map<string, GeocodeResult | null>;
}

/** Approved drivers have their vehicle and license images (docs/rules/deliveries.md, Deliveries). */
const APPROVED_DRIVERS = DEMO_ACCOUNTS.filter(
  (account) => account.roles.includes('driver') && account.isVerified,
);

/**
 * Starts putting the demo pictures in the store, hashes the demo password and locates the
 * accounts' addresses (the geocoder reads its data file first, about 0.3 s). None of it needs the
 * database, so a first start runs it while the database starts
 * (docs/decisions/0016-embedded-database-process.md, Start-up).
 */
export async function prepareDemoData(storage: ObjectStorage, now = new Date()): Promise<PreparedDemoData> {
  const productPlan = planDemoProducts(now);
  const { images: pictures, stored: productsStored } = storeDemoImages(storage, productPlan);
  const { pictures: driverPictures, stored: driversStored } = storeDemoDriverImages(
    storage,
    APPROVED_DRIVERS.length,
  );
  const stored = Promise.all([productsStored, driversStored]).then(() => undefined);
  // Awaited by the seed; a failure before then is reported there.
  stored.catch(() => undefined);
  const geocoder = new ZipCentroidGeocoder();
  const [passwordHash, located] = await Promise.all([
    hashPassword(DEMO_PASSWORD),
    Promise.all(
      DEMO_ACCOUNTS.map((account) =>
        geocoder.geocode({ ...account.address, addressLine2: null, country: 'US' }),
      ),
    ),
  ]);
  const locations = new Map(DEMO_ACCOUNTS.map((account, index) => [account.email, located[index] ?? null]));
  return { now, productPlan, pictures, driverPictures, stored, passwordHash, locations };
}

/**
 * Fills an empty database with the demo marketplace, in one transaction; does nothing when any
 * user exists. The rows name the pictures' files: they commit only once the files are all in the
 * store, so a failure leaves unreferenced files at worst, never rows without files.
 */
export async function seedDemoData(
  db: Db,
  options: SeedDemoOptions,
): Promise<{ seeded: boolean; accounts: DemoAccount[] }> {
  await seedEssentials(db);
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return { seeded: false, accounts: DEMO_ACCOUNTS };
  const { now, productPlan, pictures, driverPictures, stored, passwordHash, locations } =
    await (options.prepared ?? prepareDemoData(options.storage, options.now));
  // Every row of the accounts is made here, their ids too, and inserted a table at a time: a few
  // statements instead of seven an account (docs/decisions/0016-embedded-database-process.md, Start-up).
  const idOfEmail = new Map(DEMO_ACCOUNTS.map((account) => [account.email, crypto.randomUUID()]));
  const idOf = (account: DemoAccount) => {
    const id = idOfEmail.get(account.email);
    if (!id) throw new Error(`No id for the demo account ${account.email}`);
    return id;
  };
  const driverRecords = APPROVED_DRIVERS.map((account, index) =>
    demoDriverImageRecords(idOf(account), driverPictures[index] ?? [], now),
  );
  const sellers = DEMO_ACCOUNTS.filter((account) => account.roles.includes('seller'));
  // Sellers offer pickups Monday to Saturday; one blackout a week ahead shows in the slots.
  const inAWeek = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  await db.transaction(async (tx) => {
    await tx.insert(users).values(
      DEMO_ACCOUNTS.map((account) => ({
        id: idOf(account),
        email: account.email,
        firstName: account.firstName,
        lastName: account.lastName,
        role: account.role,
        roles: account.roles,
        isVerified: account.isVerified ?? false,
        // Demo accounts sign in at once (docs/rules/accounts.md, Sessions and sign-in).
        emailVerifiedAt: now,
        ...driverRecords[APPROVED_DRIVERS.indexOf(account)]?.fields,
      })),
    );
    const driverObjects = driverRecords.flatMap((records) => records.objects);
    if (driverObjects.length > 0) await tx.insert(uploadedObjects).values(driverObjects);
    await tx
      .insert(passwordCredentials)
      .values(DEMO_ACCOUNTS.map((account) => ({ userId: idOf(account), passwordHash })));
    await tx.insert(addresses).values(
      DEMO_ACCOUNTS.map((account) => {
        const located = locations.get(account.email) ?? null;
        return {
          userId: idOf(account),
          ...account.address,
          latitude: located ? String(located.latitude) : null,
          longitude: located ? String(located.longitude) : null,
          isVerified: located?.isVerified ?? false,
          isPrimary: true,
        };
      }),
    );
    await tx.insert(availabilitySchedules).values(
      sellers.flatMap((account) => [
        ...[1, 2, 3, 4, 5].map((dayOfWeek) => ({
          userId: idOf(account),
          dayOfWeek,
          startTime: '09:00',
          endTime: '17:00',
        })),
        { userId: idOf(account), dayOfWeek: 6, startTime: '10:00', endTime: '14:00' },
      ]),
    );
    await tx.insert(blackoutDates).values(
      sellers.map((account) => ({
        userId: idOf(account),
        startDate: inAWeek,
        endDate: inAWeek,
        reason: 'Stocktaking',
      })),
    );
    const sellerIdOf = (email: string) => {
      const id = idOfEmail.get(email);
      if (!id) throw new Error(`No demo account ${email} for the demo products`);
      return id;
    };
    await insertDemoProducts(tx, productPlan, pictures, sellerIdOf, now);
    // Orders last: they are made of the demo sellers' products (seedDemoOrders skips without any).
    await seedDemoOrders(tx, now);
    await stored;
  });
  return { seeded: true, accounts: DEMO_ACCOUNTS };
}
