import { count } from 'drizzle-orm';
import type { Db } from '../client';
import { categories, commissionSettings, passwordCredentials, users } from '../schema';
import { DEFAULT_CATEGORIES } from '../../../domain/categories';
import type { Role } from '../../../domain/roles';
import { hashPassword } from '../../modules/auth/passwords';

/** The password of every demo account; printed at start-up (DECISIONS §1). */
export const DEMO_PASSWORD = 'demo1234';

export interface DemoAccount {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  roles: Role[];
  isVerified?: boolean;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'admin@example.com', firstName: 'Avery', lastName: 'Admin', role: 'admin', roles: ['buyer', 'seller', 'driver', 'admin'] },
  { email: 'buyer@example.com', firstName: 'Bailey', lastName: 'Buyer', role: 'buyer', roles: ['buyer'] },
  { email: 'buyer2@example.com', firstName: 'Casey', lastName: 'Carter', role: 'buyer', roles: ['buyer'] },
  { email: 'seller@example.com', firstName: 'Sam', lastName: 'Seller', role: 'seller', roles: ['buyer', 'seller'] },
  { email: 'seller2@example.com', firstName: 'Morgan', lastName: 'Maker', role: 'seller', roles: ['buyer', 'seller'] },
  {
    email: 'driver@example.com',
    firstName: 'Drew',
    lastName: 'Driver',
    role: 'driver',
    roles: ['buyer', 'driver'],
    isVerified: true,
  },
  {
    email: 'driver2@example.com',
    firstName: 'Riley',
    lastName: 'Rhodes',
    role: 'driver',
    roles: ['buyer', 'driver'],
    isVerified: true,
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

/** Fills an empty database with the demo marketplace; does nothing when any user exists. */
export async function seedDemoData(db: Db): Promise<{ seeded: boolean; accounts: DemoAccount[] }> {
  await seedEssentials(db);
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return { seeded: false, accounts: DEMO_ACCOUNTS };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
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
      await tx.insert(passwordCredentials).values({ userId: user.id, passwordHash });
    }
  });
  return { seeded: true, accounts: DEMO_ACCOUNTS };
}
