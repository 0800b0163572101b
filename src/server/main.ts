import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config';
import { DataDirLockedError, migrateDatabase, openDatabase, type Database } from './db/client';
import { DEMO_PASSWORD, seedDemoData, seedEssentials } from './db/seed/demo';
import { buildApp } from './app';
import { resolveSessionSecret } from './secrets';
import { createObjectStorage } from './adapters/storage/create-object-storage';

function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project root');
    dir = parent;
  }
  return dir;
}

/** The banner names the active payment provider, so a test-mode server is never mistaken for a live one. */
function paymentProviderLine(config: Config): string {
  if (config.stripe) {
    const mode = config.stripe.secretKey.includes('_live_') ? 'live' : 'test mode';
    return `Stripe (${mode}${config.stripe.apiBase ? `, ${config.stripe.apiBase}` : ''})`;
  }
  return `built-in test provider, no real money moves${config.allowTestPayments ? ' (ALLOW_TEST_PAYMENTS=true)' : ''}`;
}

function fail(message: string): never {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

/** The demo marketplace, its product pictures put in the store the server will read them from. */
async function seedDemo(config: Config, database: Database, sessionSecret: string) {
  const storage = await createObjectStorage(config, sessionSecret);
  try {
    return await seedDemoData(database.db, { storage });
  } finally {
    await storage.close();
  }
}

async function start(): Promise<void> {
  const startedAt = performance.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      // Off the request thread (docs/decisions/0016-embedded-database-process.md).
      embedded: config.embeddedDatabase,
      // Without its database the server can answer nothing: it stops, and a supervisor restarts both.
      onEmbeddedExit: (code, signal) =>
        fail(`The embedded database process ended unexpectedly (${signal ?? `exit code ${code}`}).`),
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    fail(`Could not open the database: ${error instanceof Error ? error.message : String(error)}`);
  }

  try {
    await migrateDatabase(database);
    const sessionSecret = resolveSessionSecret(config);
    // Production never seeds demo data unless asked (`npm run seed`); the embedded default does.
    const demo =
      !config.databaseUrl && config.demoData ? await seedDemo(config, database, sessionSecret) : undefined;
    if (!demo) await seedEssentials(database.db);

    const webRoot = path.join(projectRoot(), 'dist/web');
    const app = await buildApp({
      config,
      database,
      sessionSecret,
      webRoot: fs.existsSync(path.join(webRoot, 'index.html')) ? webRoot : undefined,
      logger: { level: config.logLevel },
    });

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => {
        app.log.error('shutdown took too long; exiting');
        process.exit(1);
      }, 10_000);
      force.unref();
      try {
        await app.close();
      } finally {
        await database.close();
        process.exit(0);
      }
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));

    // The payments' recovery (and its timer) starts with the app: startRecurring in payments.routes.ts.
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = config.publicUrl ?? `http://localhost:${port}`;
    const lines = [
      '',
      `  Local Delivery Marketplace is running at ${url}`,
      `  Database: ${database.kind === 'pglite' ? `embedded (${path.join(config.dataDir, 'db')}${database.driver === 'pg' ? ', own process' : ''})` : 'PostgreSQL'}`,
      `  Sign-in: ${config.oidc ? `OpenID Connect (${config.oidc.issuerUrl})` : 'email and password'}`,
      `  Payments: ${paymentProviderLine(config)}`,
    ];
    if (demo) {
      lines.push(`  Demo sign-ins (password "${DEMO_PASSWORD}" for each):`);
      for (const account of demo.accounts) lines.push(`    ${account.role.padEnd(7)} ${account.email}`);
    }
    lines.push(`  Ready in ${Math.round(performance.now() - startedAt)} ms`, '');
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (error) {
    await database.close();
    throw error;
  }
}

start().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
