import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { Role } from '../../../domain/roles';

export type UserRow = typeof users.$inferSelect;

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

/** The row locked until the transaction ends (an admin's role change reads it before changing it). */
export async function findUserForUpdate(tx: Db, id: string): Promise<UserRow | undefined> {
  const rows = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return rows[0];
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return rows[0];
}

export async function findUserByOidcIdentity(
  db: Db,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`${users.oidcIssuer} = ${issuer} and ${users.oidcSubject} = ${subject}`)
    .limit(1);
  return rows[0];
}

export async function insertUser(
  db: Db,
  values: Pick<
    typeof users.$inferInsert,
    'email' | 'firstName' | 'lastName' | 'oidcIssuer' | 'oidcSubject' | 'profileImageUrl'
  >,
): Promise<UserRow> {
  const rows = await db.insert(users).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateUser(
  db: Db,
  id: string,
  values: Partial<
    Pick<
      UserRow,
      'firstName' | 'lastName' | 'email' | 'role' | 'roles' | 'oidcIssuer' | 'oidcSubject' | 'isVerified'
    >
  >,
): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return rows[0];
}

/** Adds a role to the granted set, atomically and without duplicates; optionally makes it current. */
export async function grantRole(
  db: Db,
  id: string,
  role: Role,
  makeCurrent: boolean,
): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({
      roles: sql`case when ${role} = any(${users.roles}) then ${users.roles} else array_append(${users.roles}, ${role}::text) end`,
      ...(makeCurrent ? { role } : {}),
      updatedAt: new Date(),
    })
    .where(eq(users.id, id))
    .returning();
  return rows[0];
}

/** Sets the current role only when it is one of the granted roles (checked in the same statement). */
export async function setCurrentRole(db: Db, id: string, role: Role): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(sql`${users.id} = ${id} and ${role} = any(${users.roles})`)
    .returning();
  return rows[0];
}
