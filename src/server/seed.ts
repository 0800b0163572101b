import { ConfigError, loadConfig } from './config';
import { DataDirLockedError, migrateDatabase, openDatabase } from './db/client';
import { DEMO_PASSWORD, seedDemoData } from './db/seed/demo';
import { createObjectStorage } from './adapters/storage/create-object-storage';
import { resolveSessionSecret } from './secrets';

/** `npm run seed`: fills the configured database with the demo marketplace (production never does this by itself). */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    // It may run longer than a request's statement timeout (docs/operations.md, Database timeouts).
    longWork: true,
  });
  try {
    await migrateDatabase(database);
    // The pictures go where the server reads uploads from: DATA_DIR/objects or the S3 bucket.
    const storage = await createObjectStorage(config, resolveSessionSecret(config));
    const result = await seedDemoData(database.db, { storage }).finally(() => storage.close());
    if (!result.seeded) {
      process.stdout.write('The database already has users; demo data was not added.\n');
      return;
    }
    process.stdout.write(`Demo data added. Sign-ins (password "${DEMO_PASSWORD}"):\n`);
    for (const account of result.accounts)
      process.stdout.write(`  ${account.role.padEnd(7)} ${account.email}\n`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError)
    process.stderr.write(`${error.message}\n`);
  else
    process.stderr.write(
      `Seeding failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  process.exit(1);
});
