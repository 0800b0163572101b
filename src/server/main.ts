import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config';
import type { Database } from './db/client';
import type { PreparedDemoData, DemoAccount } from './db/seed/demo';
import type { App } from './platform/context';
import type { ObjectStorage } from './adapters/storage/object-storage';
import type { FirstScreenRenderer } from './platform/web-app';
import { pgliteDir, startEmbeddedProcess, type EmbeddedProcess } from './db/embedded-database';
import { resolveSessionSecret, resolveVapidKeys } from './secrets';
import { describeStartupFailure, startupFailureStacks } from './startup-failure';

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

/** LOG_LEVEL=debug (or trace), once the configuration is read: a failed start prints its stack too. */
let debugging = false;

/**
 * A start that failed: one line naming the cause (docs/operations.md, Start-up messages), its stack
 * only with LOG_LEVEL=debug, and exit code 1.
 */
function failStart(error: unknown): never {
  if (error instanceof ConfigError) fail(error.message);
  const line = `Start-up failed: ${describeStartupFailure(error)}`;
  if (debugging) process.stderr.write(`\n${startupFailureStacks(error)}\n`);
  fail(line);
}

/** Where an unhandled rejection is logged once the app has its logger; standard error before. */
let processLog: App['log'] | undefined;

/**
 * A promise rejected with nobody to handle it (a library's call left unawaited, the database gone
 * meanwhile) is logged with its cause and the server goes on: Node's default would end it, and with
 * it every request in flight. The parts that must end the server end it themselves: the embedded
 * database's process (`onEmbeddedExit`), a failed start (`failStart`), the signals.
 */
function keepRunningOnUnhandledRejection(): void {
  process.on('unhandledRejection', (reason: unknown) => {
    if (processLog) {
      processLog.error({ err: reason }, 'unhandled rejection; the server goes on');
      return;
    }
    process.stderr.write(`Unhandled rejection: ${describeStartupFailure(reason)}\n`);
    if (debugging) process.stderr.write(`${startupFailureStacks(reason)}\n`);
  });
}

/**
 * The modules this file imports only once the database is starting
 * (docs/decisions/0016-embedded-database-process.md, Start-up).
 */
type DatabaseClient = typeof import('./db/client');
type DemoSeed = typeof import('./db/seed/demo');

/** The demo data a start seeds: the store its pictures go to, and what is made while the database starts. */
interface DemoStart {
  storage: ObjectStorage;
  prepared: Promise<PreparedDemoData> | undefined;
}

/** What the banner lists of the demo data: its accounts and their one password. */
interface DemoSignIns {
  password: string;
  accounts: DemoAccount[];
}

/**
 * Starts the server in its phases: the configuration, the database (started first, the work below
 * overlapping its start), the migrations and seed, the app, the signals that stop it, then listening
 * and the banner.
 */
async function start(): Promise<void> {
  const startedAt = performance.now();
  const config = readConfig();
  debugging = config.logLevel === 'debug' || config.logLevel === 'trace';

  const sessionSecret = resolveSessionSecret(config);
  const vapid = resolveVapidKeys(config);
  const newDataDir =
    !config.databaseUrl && !fs.existsSync(path.join(pgliteDir(config.dataDir), 'PG_VERSION'));
  // The database first: starting it is the longest step of a start, and everything below runs
  // while it starts, even the loading of the server's modules, which this file imports only now
  // (docs/decisions/0016-embedded-database-process.md, Start-up).
  const embeddedProcess = startDatabaseProcess(config);
  // The server's routes and plugins load meanwhile too, and the renderer of pages' first screens.
  const appModule = import('./app');
  const [client, seed] = await Promise.all([import('./db/client'), import('./db/seed/demo')]);
  const opening = beginOpeningDatabase(config, embeddedProcess, client);
  // Awaited below; a failure surfaces there, not as an unhandled rejection while the demo data's
  // modules load (a data directory in use was reported so, with a stack, before its one line).
  opening.catch(() => undefined);
  const demoStart = await beginDemoData(config, sessionSecret, newDataDir, seed);
  const webRoot = findWebRoot();
  const firstScreen = webRoot ? loadFirstScreenRenderer(appModule, webRoot) : undefined;
  // Each is awaited below; a failure surfaces there, not as an unhandled rejection before it.
  demoStart?.prepared?.catch(() => undefined);
  appModule.catch(() => undefined);
  firstScreen?.catch(() => undefined);

  const database = await opening;

  let app: App | undefined;
  try {
    const demoSignIns = await migrateAndSeed(database, client, seed, demoStart);

    const { buildApp } = await appModule;
    app = await buildApp({
      config,
      database,
      sessionSecret,
      vapid,
      webRoot,
      firstScreen: await firstScreen,
      logger: { level: config.logLevel },
      // Only a server that listens takes job runs: a start that cannot listen holds none.
      startJobs: 'when-listening',
    });
    processLog = app.log;

    installShutdown(app, database);
    const url = await listen(app, config);
    writeBanner({ url, config, database, demoSignIns, startedAt });
  } catch (error) {
    await stopFailedStart(app, database);
    throw error;
  }
}

/**
 * A start that failed stops what it started, in reverse order: the app (its job queue, which
 * records a run it took as failed, its timers and connections), then the database and its process.
 */
async function stopFailedStart(app: App | undefined, database: Database): Promise<void> {
  processLog = undefined;
  try {
    await app?.close();
  } catch (error) {
    process.stderr.write(`The app did not close cleanly: ${describeStartupFailure(error)}\n`);
  }
  try {
    await database.close();
  } catch (error) {
    process.stderr.write(`The database did not close cleanly: ${describeStartupFailure(error)}\n`);
  }
}

/** The configuration, validated; a bad one ends the process with what is wrong with it. */
function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    failStart(error);
  }
}

/**
 * Forks the embedded database's own process when it runs in one; none for PostgreSQL or PGlite in
 * this process (docs/decisions/0016-embedded-database-process.md, Start-up).
 */
function startDatabaseProcess(config: Config): EmbeddedProcess | undefined {
  if (!config.databaseUrl && config.embeddedDatabase === 'process') {
    try {
      return startEmbeddedProcess(config.dataDir);
    } catch (error) {
      failStart(error);
    }
  }
  return undefined;
}

/** Starts opening the database; `awaitDatabase` waits for it once the work that overlaps it is under way. */
function beginOpeningDatabase(
  config: Config,
  embeddedProcess: EmbeddedProcess | undefined,
  { openDatabase }: Pick<DatabaseClient, 'openDatabase'>,
): Promise<Database> {
  return openDatabase({
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
}

/**
 * The store demo data goes to, if this start seeds it, and the demo data being made meanwhile.
 */
async function beginDemoData(
  config: Config,
  sessionSecret: string,
  newDataDir: boolean,
  { prepareDemoData }: Pick<DemoSeed, 'prepareDemoData'>,
): Promise<DemoStart | undefined> {
  // Production never seeds demo data unless asked (`npm run seed`); the embedded default does, into
  // the store the server reads uploads from. A new data directory is seeded: its pictures go in the
  // store meanwhile, its password is hashed and its addresses located.
  const demoStorage =
    !config.databaseUrl && config.demoData
      ? await import('./adapters/storage/create-object-storage').then(({ createObjectStorage }) =>
          createObjectStorage(config, sessionSecret),
        )
      : undefined;
  if (!demoStorage) return undefined;
  return { storage: demoStorage, prepared: newDataDir ? prepareDemoData(demoStorage) : undefined };
}

/** The built browser app (dist/web), if there is one. */
function findWebRoot(): string | undefined {
  const builtWebRoot = path.join(projectRoot(), 'dist/web');
  return fs.existsSync(path.join(builtWebRoot, 'index.html')) ? builtWebRoot : undefined;
}

/** The renderer of pages' first screens beside the built browser app, once the server's modules are loaded. */
function loadFirstScreenRenderer(
  appModule: Promise<unknown>,
  webRoot: string,
): Promise<FirstScreenRenderer | undefined> {
  return appModule
    .then(() => import('./platform/web-app'))
    .then(({ loadBuiltRenderer }) => loadBuiltRenderer(webRoot));
}

/**
 * Brings the database up to date and seeds it: the demo data when this start has some, else the
 * essentials. Answers the demo sign-ins, if any.
 */
async function migrateAndSeed(
  database: Database,
  { migrateDatabase }: Pick<DatabaseClient, 'migrateDatabase'>,
  {
    DEMO_PASSWORD,
    seedDemoData,
    seedEssentials,
  }: Pick<DemoSeed, 'DEMO_PASSWORD' | 'seedDemoData' | 'seedEssentials'>,
  demoStart: DemoStart | undefined,
): Promise<DemoSignIns | undefined> {
  await migrateDatabase(database);
  const demo = demoStart
    ? await seedDemoData(database.db, { storage: demoStart.storage, prepared: demoStart.prepared }).finally(
        () => demoStart.storage.close(),
      )
    : undefined;
  if (!demo) await seedEssentials(database.db);
  return demo ? { password: DEMO_PASSWORD, accounts: demo.accounts } : undefined;
}

/** On SIGINT or SIGTERM: the app closes (ten seconds at most), then the database, then the process. */
function installShutdown(app: App, database: Database): void {
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
}

/** Starts taking connections; answers the address the server is reached at. */
async function listen(app: App, config: Config): Promise<string> {
  // The payments' recovery (and its timer) starts with the app: startRecurring in payments.routes.ts.
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return config.publicUrl ?? `http://localhost:${port}`;
}

/** The start-up banner: where the server runs, on what, the demo sign-ins, and how long it took. */
function writeBanner({
  url,
  config,
  database,
  demoSignIns,
  startedAt,
}: {
  url: string;
  config: Config;
  database: Database;
  demoSignIns: DemoSignIns | undefined;
  startedAt: number;
}): void {
  const lines = [
    '',
    `  Local Delivery Marketplace is running at ${url}`,
    `  Database: ${database.kind === 'pglite' ? `embedded (${path.join(config.dataDir, 'db')}${database.driver === 'pg' ? ', own process' : ''})` : 'PostgreSQL'}`,
    `  Sign-in: ${config.oidc ? `OpenID Connect (${config.oidc.issuerUrl})` : 'email and password'}`,
    `  Payments: ${paymentProviderLine(config)}`,
  ];
  if (demoSignIns) {
    lines.push(`  Demo sign-ins (password "${demoSignIns.password}" for each):`);
    for (const account of demoSignIns.accounts) lines.push(`    ${account.role.padEnd(7)} ${account.email}`);
  }
  lines.push(`  Ready in ${Math.round(performance.now() - startedAt)} ms`, '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

keepRunningOnUnhandledRejection();
start().catch(failStart);
