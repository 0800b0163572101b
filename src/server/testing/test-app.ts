import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../config';
import { migrateDatabase, openDatabase, type Database } from '../db/client';
import { seedEssentials } from '../db/seed/demo';
import { buildApp, type BuildOptions } from '../app';
import type { ObjectStorage } from '../adapters/storage/object-storage';
import { createObjectStorage } from '../adapters/storage/create-object-storage';
import type { App } from '../platform/context';
import { hashPassword } from '../modules/auth/passwords';
import { passwordCredentials, users } from '../db/schema';
import type { Role } from '../../domain/roles';

/**
 * Integration tests run against a real database: PGlite in memory always, and PostgreSQL too when
 * TEST_DATABASE_URL is set (each test file then gets a database of its own, dropped afterwards).
 */
export const TEST_DB_KIND: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** A PostgreSQL database of its own for one test file (the live-updates test opens it twice). */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `mkt_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // The pool has closed, but its backends may still be on their way out: wait for them
        // rather than force, which would send a FATAL to a client that is already ending.
        for (let attempt = 0; ; attempt++) {
          try {
            await client.query(`drop database if exists "${name}"`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  /**
   * Every response status the server sent; a 5xx fails the test
   * (CONTRIBUTING.md, Code layout rules).
   */
  statuses: number[];
  /** The app's object store. */
  storage: ObjectStorage;
  close(): Promise<void>;
}

export async function createTestApp(
  overrides: Partial<Omit<BuildOptions, 'config' | 'database' | 'sessionSecret'>> & {
    env?: Record<string, string>;
    /** Adds test-only routes before the app is sealed. */
    extend?: (app: App) => void;
  } = {},
): Promise<TestApp> {
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  if (TEST_DB_KIND === 'postgres') {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  // Files a test writes (uploads, the demo pictures) go to a directory of its own, removed at close.
  const dataDir = overrides.env?.DATA_DIR
    ? undefined
    : fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-test-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DEMO_DATA: 'off',
    // Tests run the money timer's work themselves (app.recoverPaidCheckouts), never on a clock.
    MONEY_RETRY_INTERVAL_MS: '0',
    // And the notifications' (app.runNotifications).
    NOTIFY_INTERVAL_MS: '0',
    // Transfers go out at once unless a test sets a return window
    // (docs/decisions/0018-money-against-stripe.md).
    PAYOUT_HOLD_HOURS: '0',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...overrides.env,
  });
  const database = await openDatabase({ databaseUrl });
  await migrateDatabase(database);
  await seedEssentials(database.db);
  const { env: _env, extend, ...buildOverrides } = overrides;
  const sessionSecret = crypto.randomBytes(32).toString('hex');
  // The store the config chooses, made here so tests (the demo seed) can put files in it too.
  const storage = overrides.storage ?? (await createObjectStorage(config, sessionSecret));
  const app = await buildApp({
    config,
    database,
    sessionSecret,
    storage,
    // Tests run the payout retry job's work themselves too (app.jobs runs nothing unless asked).
    payoutRetryMs: 0,
    rateLimits: {
      signInPerIpPerMinute: 10_000,
      signUpPerIpPerHour: 10_000,
      accountMailPerIpPerHour: 10_000,
      contactPerIpPer10Minutes: 10_000,
      signInFreeFailuresPerAccount: 10_000,
      signInFreeFailuresPerAccountAndAddress: 10_000,
    },
    ...buildOverrides,
  });
  const statuses: number[] = [];
  app.addHook('onResponse', async (_request, reply) => {
    statuses.push(reply.statusCode);
  });
  extend?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    statuses,
    storage,
    close: async () => {
      await app.close();
      // A store passed in belongs to the test that made it.
      if (!overrides.storage) await storage.close();
      await database.close();
      await dropDatabase();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

let counter = 0;

/** Creates a user with the given granted roles directly in the database (a factory with overrides). */
export async function createUser(
  t: TestApp,
  options: {
    roles?: Role[];
    role?: Role;
    firstName?: string;
    lastName?: string;
    email?: string;
    isVerified?: boolean;
  } = {},
): Promise<Omit<TestUser, 'cookie'>> {
  counter += 1;
  const roles = options.roles ?? ['buyer'];
  const email = options.email ?? `user${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  const [row] = await t.database.db
    .insert(users)
    .values({
      email,
      firstName: options.firstName ?? 'Test',
      lastName: options.lastName ?? `User${counter}`,
      roles: roles.includes('buyer') ? roles : ['buyer', ...roles],
      role: options.role ?? roles[roles.length - 1] ?? 'buyer',
      isVerified: options.isVerified ?? false,
      emailVerifiedAt: new Date(),
    })
    .returning({ id: users.id });
  if (!row) throw new Error('no user row');
  await t.database.db
    .insert(passwordCredentials)
    .values({ userId: row.id, passwordHash: await hashPassword(password) });
  return { id: row.id, email, password };
}

export function cookieFrom(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const list = Array.isArray(header) ? header : header ? [header] : [];
  const sid = list.find((c) => c.startsWith('sid='));
  if (!sid) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return sid.split(';')[0] ?? '';
}

export async function signIn(t: TestApp, email: string, password: string): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return cookieFrom(response);
}

/** A signed-in user of the given role: `signedInAs(t, 'seller')`. */
export async function signedInAs(
  t: TestApp,
  role: Role,
  options: Parameters<typeof createUser>[1] = {},
): Promise<TestUser> {
  const roles: Role[] = role === 'buyer' ? ['buyer'] : ['buyer', role];
  const user = await createUser(t, { roles, role, ...options });
  return { ...user, cookie: await signIn(t, user.email, user.password) };
}

/** app.inject with the user's session cookie. */
export function as(t: TestApp, user: { cookie: string } | undefined, options: InjectOptions) {
  return t.app.inject({
    ...options,
    headers: { ...(options.headers ?? {}), ...(user ? { cookie: user.cookie } : {}) },
  });
}
