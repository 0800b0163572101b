import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deliveryProofSettings } from '../../db/schema';
import type { DeliveryProofSettings } from '../../../domain/delivery-proof';

export type DeliveryProofSettingsRow = typeof deliveryProofSettings.$inferSelect;

/** The marketplace's one row of proof settings (id 1), if saved. */
export async function findDeliveryProofSettings(
  db: Db,
  lock: 'for update' | 'no lock' = 'no lock',
): Promise<DeliveryProofSettingsRow | undefined> {
  const query = db.select().from(deliveryProofSettings).where(eq(deliveryProofSettings.id, 1)).limit(1);
  const rows = lock === 'for update' ? await query.for('update') : await query;
  return rows[0];
}

/** Writes the four switches (the row is created when missing). */
export async function saveDeliveryProofSettings(
  db: Db,
  values: DeliveryProofSettings,
  now: Date,
): Promise<DeliveryProofSettingsRow> {
  const rows = await db
    .insert(deliveryProofSettings)
    .values({ id: 1, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: deliveryProofSettings.id, set: { ...values, updatedAt: now } })
    .returning();
  const row = rows[0];
  if (!row) throw new Error('upsert returned no row');
  return row;
}
