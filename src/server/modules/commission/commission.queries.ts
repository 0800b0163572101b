import { eq } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import { commissionSettings } from '../../db/schema';
import type { CommissionSettingsText } from '../../../domain/fees';

export type CommissionSettingsRow = typeof commissionSettings.$inferSelect;

/** Built once: every paid checkout prices its orders with these. */
const settingsRow = builtOnce((db) =>
  db.select().from(commissionSettings).where(eq(commissionSettings.id, 1)).limit(1).prepare(''),
);

/** The marketplace's one row of settings (id 1, seeded by seedEssentials). */
export async function findCommissionSettings(db: Db): Promise<CommissionSettingsRow | undefined> {
  const rows = await settingsRow(db).execute();
  return rows[0];
}

/** The row locked until the transaction ends, so two admins' saves queue up. */
export async function findCommissionSettingsForUpdate(tx: Db): Promise<CommissionSettingsRow | undefined> {
  const rows = await tx
    .select()
    .from(commissionSettings)
    .where(eq(commissionSettings.id, 1))
    .limit(1)
    .for('update');
  return rows[0];
}

/** Writes all eight settings (the row is created when missing). */
export async function saveCommissionSettings(
  db: Db,
  values: CommissionSettingsText,
  now: Date,
): Promise<CommissionSettingsRow> {
  const rows = await db
    .insert(commissionSettings)
    .values({ id: 1, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: commissionSettings.id, set: { ...values, updatedAt: now } })
    .returning();
  const row = rows[0];
  if (!row) throw new Error('upsert returned no row');
  return row;
}
