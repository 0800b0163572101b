import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploadedObjects } from '../../db/schema';
import type { UploadVisibility } from '../../../domain/uploads';

export type UploadedObjectRow = typeof uploadedObjects.$inferSelect;

export async function insertUploadedObject(
  db: Db,
  values: { id: string; key: string; ownerId: string },
): Promise<UploadedObjectRow> {
  const rows = await db
    .insert(uploadedObjects)
    .values({ ...values, visibility: 'pending' })
    .returning();
  const row = rows[0];
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function findUploadedObjectByKey(db: Db, key: string): Promise<UploadedObjectRow | undefined> {
  const rows = await db.select().from(uploadedObjects).where(eq(uploadedObjects.key, key)).limit(1);
  return rows[0];
}

/** Records the checked bytes of a pending object (its size and the type read from its bytes). */
export async function markObjectUploaded(
  db: Db,
  key: string,
  values: { size: number; contentType: string },
): Promise<UploadedObjectRow | undefined> {
  const rows = await db
    .update(uploadedObjects)
    .set({ ...values, uploadedAt: new Date() })
    .where(and(eq(uploadedObjects.key, key), eq(uploadedObjects.visibility, 'pending')))
    .returning();
  return rows[0];
}

/** Forgets the bytes of a pending object whose content was refused (the row stays for a retry). */
export async function markObjectNotUploaded(db: Db, key: string): Promise<void> {
  await db
    .update(uploadedObjects)
    .set({ size: null, contentType: null, uploadedAt: null })
    .where(and(eq(uploadedObjects.key, key), eq(uploadedObjects.visibility, 'pending')));
}

/**
 * Claims a pending, uploaded object of `ownerId` in one conditional statement: of two racing claims
 * exactly one sees the row still pending.
 */
export async function claimPendingObject(
  db: Db,
  params: {
    key: string;
    ownerId: string;
    visibility: Exclude<UploadVisibility, 'pending'>;
    orderId: string | null;
  },
): Promise<UploadedObjectRow | undefined> {
  const rows = await db
    .update(uploadedObjects)
    .set({ visibility: params.visibility, orderId: params.orderId })
    .where(
      and(
        eq(uploadedObjects.key, params.key),
        eq(uploadedObjects.ownerId, params.ownerId),
        eq(uploadedObjects.visibility, 'pending'),
      ),
    )
    .returning();
  return rows[0];
}
