import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import { formatCents, parseCents } from '../../../domain/money';
import type { DriverEarnings } from '../../../domain/deliveries';
import { sumDriverEarnings } from './deliveries.queries';

/**
 * GET /api/earnings/driver (docs/product-rules.md, Deliveries): the caller's driver earnings of
 * delivered orders only (what a delivery pays after the platform's commission) and how many.
 */
export async function getDriverEarnings(db: Db, actor: Actor): Promise<DriverEarnings> {
  const { total, count } = await sumDriverEarnings(db, actor.id);
  return { totalEarnings: formatCents(parseCents(total)), orderCount: count };
}
