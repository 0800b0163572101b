import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { commissionSettings } from '../../db/schema';

export type CommissionSettingsRow = typeof commissionSettings.$inferSelect;

/** The marketplace's one row of settings (id 1, seeded by seedEssentials). */
export async function findCommissionSettings(db: Db): Promise<CommissionSettingsRow | undefined> {
  const rows = await db.select().from(commissionSettings).where(eq(commissionSettings.id, 1)).limit(1);
  return rows[0];
}
