import { ConfigError, loadConfig } from './config';
import { DataDirLockedError, openDatabase } from './db/client';
import { formatReconcileReport, reconcile } from './modules/ledger/reconcile';

/**
 * `npm run reconcile` (docs/decisions/0013-money-movement.md, Transfers and the ledger): checks the
 * ledger against the payments, orders, refunds and payouts of DATABASE_URL, or of the embedded
 * database in DATA_DIR (refused while a server holds its lock). Prints every discrepancy and the
 * figures; exits 1 when there is a discrepancy, 2 when it could not check.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    preparedStatements: config.preparedStatements,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
  });
  try {
    const report = await reconcile(database.db);
    process.stdout.write(`${formatReconcileReport(report)}\n`);
    return report.discrepancies.length === 0 ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError)
      process.stderr.write(`${error.message}\n`);
    else
      process.stderr.write(
        `Reconcile could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    process.exit(2);
  },
);
