import type { App, AppContext } from '../../platform/context';
import { retryPayouts } from './settle-payouts';

/**
 * The payout retry job: at start-up and every PAYOUT_RETRY_INTERVAL_MS
 * (docs/decisions/0013-money-movement.md, Transfers and the ledger), what a crash or an unreachable provider
 * left undone is finished, owed payouts of accounts that became ready go out, and refunded orders' transfers
 * are reversed.
 */
export function registerPayoutJobs(app: App, ctx: AppContext, options: { everyMs: number }): void {
  app.jobs.every({
    name: 'payout-retry',
    everyMs: options.everyMs,
    run: async () => {
      const report = await retryPayouts(ctx.ops.payouts(app.log));
      if (report.paid > 0 || report.reversed > 0 || report.restored > 0)
        app.log.info(report, 'payout retry job finished unfinished payouts');
    },
  });
}
