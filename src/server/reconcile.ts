import { ConfigError, loadConfig } from './config';
import { DataDirLockedError, openDatabase } from './db/client';
import { formatReconcileReport, reconcile } from './modules/ledger/reconcile';
import { formatProviderReport, reconcileWithProvider } from './modules/ledger/provider-reconcile';
import { createPaymentProvider } from './platform/providers';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A wrong command line: said, and the command exits 2. */
class UsageError extends Error {}

/** `YYYY-MM-DD` (a whole UTC day) or an ISO instant; `endOfDay` makes a day's date mean its end. */
function parseDate(text: string | undefined, name: string, endOfDay: boolean): Date {
  if (!text) throw new UsageError(`${name} needs a date (YYYY-MM-DD)`);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = new Date(day ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(at.getTime()) || (day && at.toISOString().slice(0, 10) !== text))
    throw new UsageError(`${name} ${text} is not a date (YYYY-MM-DD)`);
  return day && endOfDay ? new Date(at.getTime() + DAY_MS) : at;
}

/**
 * `--provider` compares the ledger with the provider's balance transactions too; `--from` and
 * `--to` (UTC days, both included) choose the period, the last 30 days by default.
 */
function parseReconcileArgs(
  args: string[],
  now: Date,
): { provider: boolean; period: { from: Date; to: Date } } {
  let provider = false;
  let from: Date | undefined;
  let to: Date | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--provider') provider = true;
    else if (arg === '--from') from = parseDate(args[(i += 1)], '--from', false);
    else if (arg === '--to') to = parseDate(args[(i += 1)], '--to', true);
    else
      throw new UsageError(
        `Unknown argument ${arg ?? ''}: use --provider [--from YYYY-MM-DD] [--to YYYY-MM-DD]`,
      );
  }
  if ((from || to) && !provider) throw new UsageError('--from and --to choose the period of --provider');
  const end = to ?? now;
  const start = from ?? new Date(end.getTime() - 30 * DAY_MS);
  if (start >= end) throw new UsageError('--from must be before --to');
  return { provider, period: { from: start, to: end } };
}

/**
 * `npm run reconcile` (docs/decisions/0013-money-movement.md, Transfers and the ledger): checks the
 * ledger against the payments, orders, refunds and payouts of DATABASE_URL, or of the embedded
 * database in DATA_DIR (refused while a server holds its lock). With `--provider`, also against
 * the provider's balance transactions of a period (docs/decisions/0018-money-against-stripe.md).
 * Prints every discrepancy and the figures; exits 1 when there is a discrepancy, 2 when it could
 * not check.
 */
async function main(): Promise<number> {
  const options = parseReconcileArgs(process.argv.slice(2), new Date());
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    preparedStatements: config.preparedStatements,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    // It may run longer than a request's statement timeout (docs/operations.md, Database timeouts).
    longWork: true,
  });
  try {
    const report = await reconcile(database.db);
    process.stdout.write(`${formatReconcileReport(report)}\n`);
    let clean = report.discrepancies.length === 0;
    if (options.provider) {
      const provider = await createPaymentProvider(config, database.db);
      const providerReport = await reconcileWithProvider(database.db, provider, options.period);
      process.stdout.write(`${formatProviderReport(providerReport)}\n`);
      if (providerReport.kind === 'compared' && providerReport.discrepancies.length > 0) clean = false;
    }
    return clean ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof UsageError)
      process.stderr.write(`${error.message}\n`);
    else
      process.stderr.write(
        `Reconcile could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    process.exit(2);
  },
);
