import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config';
import type { Database } from './db/client';
import {
  DataDirLockedError,
  pgliteDir,
  startEmbeddedProcess,
  type EmbeddedProcess,
} from './db/embedded-database';
import { resolveSessionSecret } from './secrets';

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

async function start(): Promise<void> {
  const startedAt = performance.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  const sessionSecret = resolveSessionSecret(config);
  const newDataDir =
    !config.databaseUrl && !fs.existsSync(path.join(pgliteDir(config.dataDir), 'PG_VERSION'));
  // The database first: starting it is the longest step of a start, and everything below runs
  // while it starts, even the loading of the server's modules, which this file imports only now
  // (docs/decisions/0016-embedded-database-process.md, Start-up).
  let embeddedProcess: EmbeddedProcess | undefined;
  if (!config.databaseUrl && config.embeddedDatabase === 'process') {
    try {
      embeddedProcess = startEmbeddedProcess(config.dataDir);
    } catch (error) {
      fail(`Could not open the database: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // The server's routes and plugins load meanwhile too, and the renderer of pages' first screens.
  const appModule = import('./app');
  const [
    { migrateDatabase, openDatabase },
    { DEMO_PASSWORD, prepareDemoData, seedDemoData, seedEssentials },
  ] = await Promise.all([import('./db/client'), import('./db/seed/demo')]);
  const opening = openDatabase({
    databaseUrl: config.databaseUrl,
    preparedStatements: config.preparedStatements,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    // Off the request thread (docs/decisions/0016-embedded-database-process.md).
    embedded: config.embeddedDatabase,
    embeddedProcess,
    // Without its database the server can answer nothing: it stops, and a supervisor restarts both.
    onEmbeddedExit: (code, signal) =>
      fail(`The embedded database process ended unexpectedly (${signal ?? `exit code ${code}`}).`),
  });
  // Production never seeds demo data unless asked (`npm run seed`); the embedded default does, into
  // the store the server reads uploads from. A new data directory is seeded: its pictures go in the
  // store meanwhile, its password is hashed and its addresses located.
  const demoStorage =
    !config.databaseUrl && config.demoData
      ? await import('./adapters/storage/create-object-storage').then(({ createObjectStorage }) =>
          createObjectStorage(config, sessionSecret),
        )
      : undefined;
  const demoPrepared = demoStorage && newDataDir ? prepareDemoData(demoStorage) : undefined;
  const builtWebRoot = path.join(projectRoot(), 'dist/web');
  const webRoot = fs.existsSync(path.join(builtWebRoot, 'index.html')) ? builtWebRoot : undefined;
  const firstScreen = webRoot
    ? appModule.then(({ loadBuiltRenderer }) => loadBuiltRenderer(webRoot))
    : undefined;
  // Each is awaited below; a failure surfaces there, not as an unhandled rejection before it.
  opening.catch(() => undefined);
  demoPrepared?.catch(() => undefined);
  appModule.catch(() => undefined);
  firstScreen?.catch(() => undefined);

  let database: Database;
  try {
    database = await opening;
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    fail(`Could not open the database: ${error instanceof Error ? error.message : String(error)}`);
  }

  try {
    await migrateDatabase(database);
    const demo = demoStorage
      ? await seedDemoData(database.db, { storage: demoStorage, prepared: demoPrepared }).finally(() =>
          demoStorage.close(),
        )
      : undefined;
    if (!demo) await seedEssentials(database.db);

    const { buildApp } = await appModule;
    const app = await buildApp({
      config,
      database,
      sessionSecret,
      webRoot,
      firstScreen: await firstScreen,
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
