import { conflict, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import { recordAdminAction } from '../audit/audit.service';
import { findOrderRow } from '../orders/order-records';
import { PAYOUT_NOT_FOUND, PAYOUT_NOT_RETRYABLE, type FailedPayout } from '../../../domain/payouts';
import { payPayout, restoreShare } from './pay-payout';
import type { PayoutDeps } from './payout-deps';
import { findFailingPayout, findPayout, releaseRefusedPayout, releaseRefusedShares } from './payouts.queries';
import { toFailedPayout } from './payout-views';

/**
 * POST /api/admin/payouts/{id}/retry (docs/decisions/0018-money-against-stripe.md, Failed payouts):
 * an admin sends a payout the provider refused again, at once, whatever its backoff. It goes back
 * to pending with its refusals forgotten, the audit trail records it, and it is transferred now;
 * a share the provider refused to give back after a failed refund is transferred again the same
 * way (docs/decisions/0022-money-in-combinations.md, Transfers and their keys). The answer is the
 * payout as it stands after that attempt.
 */
export async function retryPayout(deps: PayoutDeps, actor: Actor, id: string): Promise<FailedPayout> {
  const payout = await findPayout(deps.db, id);
  if (!payout) throw notFound(PAYOUT_NOT_FOUND);
  const order = await findOrderRow(deps.db, payout.orderId);
  const now = deps.now();
  const released = await deps.db.transaction(async (tx) => {
    const row = await releaseRefusedPayout(tx, id, now);
    const shares = await releaseRefusedShares(tx, { payoutId: id }, now);
    if (!row && shares.length === 0) return undefined;
    await recordAdminAction(tx, actor, {
      action: 'payout.retried',
      target: { type: 'order', id: payout.orderId, label: order?.orderNumber ?? payout.orderId },
      before: { status: payout.status, party: payout.kind },
      after: { status: row ? 'pending' : payout.status, party: payout.kind },
      now,
    });
    return { row, shares };
  });
  if (!released) throw conflict(PAYOUT_NOT_RETRYABLE);
  if (released.row) await payPayout(deps, released.row);
  for (const share of released.shares) {
    const current = await findPayout(deps.db, id);
    if (current) await restoreShare(deps, current, share);
  }
  const after = await findFailingPayout(deps.db, id);
  if (!after) throw notFound(PAYOUT_NOT_FOUND);
  return toFailedPayout(after);
}
