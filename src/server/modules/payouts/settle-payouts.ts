import { payPayout, restoreShare, retryReversal } from './pay-payout';
import type { PayoutDeps } from './payout-deps';
import {
  findReadyAccount,
  listPendingPayoutsOfUser,
  listPendingReversals,
  listRestoringShares,
  listUnfinishedPayouts,
  listUsersOwedAndReady,
  releaseOwedPayouts,
  releaseRefusedShares,
} from './payouts.queries';

/**
 * Pays what a user is owed once their payout account is ready (docs/rules/catalog-and-orders.md, Order
 * lifecycle; docs/decisions/0013-money-movement.md, Transfers and the ledger): their owed payouts,
 * and ones the provider refused before whose backoff has passed
 * (docs/decisions/0018-money-against-stripe.md, Failed payouts), go back to pending and are
 * transferred now. Called when an
 * account becomes ready; the retry job calls it too, so a missed call only delays the money.
 * Answers how many payouts went out.
 */
export async function settleOwedPayouts(
  deps: PayoutDeps,
  userId: string,
  options: { accountBecameReady?: boolean } = {},
): Promise<number> {
  if (!(await findReadyAccount(deps.db, userId))) return 0;
  // An account that has just become ready again (fixed by its owner) takes its refused payouts too,
  // whatever their backoff (docs/decisions/0018-money-against-stripe.md, Failed payouts).
  await releaseOwedPayouts(deps.db, userId, deps.now(), {
    includeRefused: options.accountBecameReady === true,
  });
  // Shares refused while given back after a failed refund are tried again the same way.
  if (options.accountBecameReady === true) await releaseRefusedShares(deps.db, { userId }, deps.now());
  let paid = 0;
  for (const payout of await listPendingPayoutsOfUser(deps.db, userId)) {
    if ((await payPayout(deps, payout)) === 'paid') paid += 1;
  }
  return paid;
}

export interface PayoutRetryReport {
  paid: number;
  reversed: number;
  /** Shares transferred back to payees after their refund failed. */
  restored: number;
}

const PAGE_SIZE = 200;

/**
 * The retry job (at start-up and on a timer): settles users whose accounts became ready, then walks every
 * pending payout page by page — ones past their hold and not held by a live worker are transferred (the key,
 * and past its window a look for the transfer, keep that to once) — then the shares refunds took back from
 * paid payouts are reversed; a transient error is tried again next time. Nothing a crash left between the
 * database and the provider is lost.
 */
export async function retryPayouts(deps: PayoutDeps): Promise<PayoutRetryReport> {
  const report: PayoutRetryReport = { paid: 0, reversed: 0, restored: 0 };
  const settled = new Set<string>();
  for (;;) {
    const users = (await listUsersOwedAndReady(deps.db, PAGE_SIZE, deps.now())).filter(
      (id) => !settled.has(id),
    );
    if (users.length === 0) break;
    for (const userId of users) {
      settled.add(userId);
      report.paid += await settleOwedPayouts(deps, userId);
    }
  }
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page = await listUnfinishedPayouts(deps.db, after, deps.now(), PAGE_SIZE);
    for (const payout of page) if ((await payPayout(deps, payout)) === 'paid') report.paid += 1;
    const last = page.at(-1);
    if (!last || page.length < PAGE_SIZE) break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  // Shares of paid payouts still to take back; an unrecovered one (refused for good) is never listed again.
  after = null;
  for (;;) {
    const page = await listPendingReversals(deps.db, after, deps.now(), PAGE_SIZE);
    for (const reversal of page)
      if ((await retryReversal(deps, reversal)) === 'reversed') report.reversed += 1;
    const last = page.at(-1);
    if (!last || page.length < PAGE_SIZE) break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  // Shares a failed refund gave back to their payees (docs/decisions/0022-money-in-combinations.md).
  after = null;
  for (;;) {
    const page = await listRestoringShares(deps.db, after, deps.now(), PAGE_SIZE);
    for (const { reversal, payout } of page)
      if ((await restoreShare(deps, payout, reversal)) === 'restored') report.restored += 1;
    const last = page.at(-1)?.reversal;
    if (!last || page.length < PAGE_SIZE) break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  return report;
}
