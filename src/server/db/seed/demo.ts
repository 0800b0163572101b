import { count } from 'drizzle-orm';
import type { Db } from '../client';
import {
  addresses,
  availabilitySchedules,
  blackoutDates,
  categories,
  commissionSettings,
  passwordCredentials,
  users,
} from '../schema';
import { ZipCentroidGeocoder } from '../../adapters/geocoding/zip-centroid-geocoder';
import { DEFAULT_CATEGORIES } from '../../../domain/categories';
import type { Role } from '../../../domain/roles';
import { hashPassword } from '../../modules/auth/passwords';
import type { ObjectStorage } from '../../adapters/storage/object-storage';
import { insertDemoProducts, planDemoProducts, storeDemoImages } from './demo-products';
import { seedDemoOrders } from './demo-orders';
import { attachDemoDriverImages, storeDemoDriverImages } from './demo-driver-images';

/**
 * The password of every demo account; printed at start-up
 * (docs/product-rules.md, Running modes and adapters).
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
   * (docs/product-rules.md, Running modes and adapters; Uploads and who sees a file).
   */
  storage: ObjectStorage;
  /** The clock; products are listed over the 60 days before it. */
  now?: Date;
  /**
   * The pictures, already being put in the store by `storeDemoPictures` while the database
   * starts (src/server/main.ts); stored here when absent.
   */
  pictures?: Promise<DemoPictures>;
}

/** The demo marketplace's pictures, in the store, and the products they belong to. */
export interface DemoPictures {
  now: Date;
  productPlan: ReturnType<typeof planDemoProducts>;
  pictures: Awaited<ReturnType<typeof storeDemoImages>>;
  driverPictures: Awaited<ReturnType<typeof storeDemoDriverImages>>;
}

/** Approved drivers have their vehicle and license images (docs/product-rules.md, Deliveries). */
const APPROVED_DRIVERS = DEMO_ACCOUNTS.filter(
  (account) => account.roles.includes('driver') && account.isVerified,
);

/**
 * Puts the demo pictures in the store. It needs no database, so a first start runs it while the
 * database starts (docs/decisions/0016-embedded-database-process.md, Start-up). Pictures first: a
 * failure after it leaves unreferenced files at worst, never rows without files.
 */
export async function storeDemoPictures(storage: ObjectStorage, now = new Date()): Promise<DemoPictures> {
  const productPlan = planDemoProducts(now);
  const [pictures, driverPictures] = await Promise.all([
    storeDemoImages(storage, productPlan),
    storeDemoDriverImages(storage, APPROVED_DRIVERS.length),
  ]);
  return { now, productPlan, pictures, driverPictures };
}

/** Fills an empty database with the demo marketplace; does nothing when any user exists. */
export async function seedDemoData(
  db: Db,
  options: SeedDemoOptions,
): Promise<{ seeded: boolean; accounts: DemoAccount[] }> {
  await seedEssentials(db);
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return { seeded: false, accounts: DEMO_ACCOUNTS };
  const [passwordHash, { now, productPlan, pictures, driverPictures }] = await Promise.all([
    hashPassword(DEMO_PASSWORD),
    options.pictures ?? storeDemoPictures(options.storage, options.now),
  ]);
  const geocoder = new ZipCentroidGeocoder();
  const approvedDrivers = APPROVED_DRIVERS;
  await db.transaction(async (tx) => {
    const idOfEmail = new Map<string, string>();
    for (const account of DEMO_ACCOUNTS) {
      const [user] = await tx
        .insert(users)
        .values({
          email: account.email,
          firstName: account.firstName,
          lastName: account.lastName,
          role: account.role,
          roles: account.roles,
          isVerified: account.isVerified ?? false,
        })
        .returning({ id: users.id });
      if (!user) throw new Error('demo user insert returned no row');
      idOfEmail.set(account.email, user.id);
      const driverIndex = approvedDrivers.indexOf(account);
      if (driverIndex >= 0) await attachDemoDriverImages(tx, user.id, driverPictures[driverIndex] ?? [], now);
      await tx.insert(passwordCredentials).values({ userId: user.id, passwordHash });
      const located = await geocoder.geocode({ ...account.address, addressLine2: null, country: 'US' });
      await tx.insert(addresses).values({
        userId: user.id,
        ...account.address,
        latitude: located ? String(located.latitude) : null,
        longitude: located ? String(located.longitude) : null,
        isVerified: located?.isVerified ?? false,
        isPrimary: true,
      });
      if (account.roles.includes('seller')) {
        // Sellers offer pickups Monday to Saturday; one blackout a week ahead shows in the slots.
        await tx.insert(availabilitySchedules).values(
          [1, 2, 3, 4, 5].map((dayOfWeek) => ({
            userId: user.id,
            dayOfWeek,
            startTime: '09:00',
            endTime: '17:00',
          })),
        );
        await tx
          .insert(availabilitySchedules)
          .values({ userId: user.id, dayOfWeek: 6, startTime: '10:00', endTime: '14:00' });
        const inAWeek = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
        await tx
          .insert(blackoutDates)
          .values({ userId: user.id, startDate: inAWeek, endDate: inAWeek, reason: 'Stocktaking' });
      }
    }
    const sellerIdOf = (email: string) => {
      const id = idOfEmail.get(email);
      if (!id) throw new Error(`No demo account ${email} for the demo products`);
      return id;
    };
    await insertDemoProducts(tx, productPlan, pictures, sellerIdOf, now);
  });
  // Orders last: they are made of the demo sellers' products (seedDemoOrders skips without any).
  await seedDemoOrders(db, now);
  return { seeded: true, accounts: DEMO_ACCOUNTS };
}
