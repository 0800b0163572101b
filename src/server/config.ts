import path from 'node:path';
import { z } from 'zod';
import { COMPANY } from '../domain/company';

/**
 * The only reader of process.env (CONTRIBUTING.md, Code layout rules). Everything the server
 * needs from its environment is parsed and validated here; a bad value stops start-up with a
 * message naming it.
 */
const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.url().optional());

/** Stripe's mode of a key: `sk_test_…`, `rk_live_…`, `pk_test_…`. */
function stripeModeOf(key: string | undefined): 'test' | 'live' | undefined {
  const mode = key ? /^(?:sk|rk|pk)_(test|live)_/.exec(key)?.[1] : undefined;
  return mode === 'test' || mode === 'live' ? mode : undefined;
}

/**
 * Production takes real money only (docs/decisions/0018-money-against-stripe.md, Test money in
 * production): test keys, a secret and a publishable key of different modes, or an API base pointing
 * elsewhere than Stripe are refused, naming the setting, unless ALLOW_TEST_PAYMENTS=true. Keys of
 * two modes never work together (an intent made in live mode cannot be confirmed with a test key),
 * so they are refused everywhere.
 */
function checkLiveMoney(
  env: {
    NODE_ENV: string;
    ALLOW_TEST_PAYMENTS: string;
    STRIPE_SECRET_KEY?: string | undefined;
    STRIPE_PUBLISHABLE_KEY?: string | undefined;
    STRIPE_API_BASE?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const secretMode = stripeModeOf(env.STRIPE_SECRET_KEY);
  const publishableMode = stripeModeOf(env.STRIPE_PUBLISHABLE_KEY);
  if (secretMode && publishableMode && secretMode !== publishableMode)
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_PUBLISHABLE_KEY'],
      message: `is a ${publishableMode} key but STRIPE_SECRET_KEY is a ${secretMode} key: both must be of the same mode`,
    });
  if (env.NODE_ENV !== 'production' || env.ALLOW_TEST_PAYMENTS === 'true') return;
  const allow = '(set ALLOW_TEST_PAYMENTS=true to run on test money anyway)';
  if (secretMode === 'test')
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_SECRET_KEY'],
      message: `is a test key: production takes real money only with a live key (sk_live_…) ${allow}`,
    });
  if (publishableMode === 'test')
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_PUBLISHABLE_KEY'],
      message: `is a test key: production takes real money only with a live key (pk_live_…) ${allow}`,
    });
  if (env.STRIPE_API_BASE !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_API_BASE'],
      message: `points the payments away from Stripe: production talks to Stripe itself ${allow}`,
    });
}

const envSchema = z
  .object({
    NODE_ENV: z.preprocess(
      emptyToUndefined,
      z.enum(['development', 'production', 'test']).default('development'),
    ),
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(5000)),
    HOST: z.preprocess(emptyToUndefined, z.string().min(1).default('0.0.0.0')),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default('./data')),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    PUBLIC_URL: optionalUrl,
    SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    ADMIN_EMAILS: optionalString,
    /**
     * Whether administrators must sign in with a second factor (docs/decisions/0024-two-factor-sign-in.md):
     * `required` by default in production, `optional` otherwise, so the demo and the tests sign in
     * as before.
     */
    ADMIN_TWO_FACTOR: z.preprocess(emptyToUndefined, z.enum(['required', 'optional']).optional()),
    DEMO_DATA: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
    /** `off` behind a pooler that cannot keep prepared statements (src/server/db/statement-names.ts). */
    DATABASE_PREPARED_STATEMENTS: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
    /**
     * Where the embedded database runs: its own process (the default) or the server's, to compare
     * (docs/decisions/0016-embedded-database-process.md).
     */
    EMBEDDED_DATABASE: z.preprocess(emptyToUndefined, z.enum(['process', 'in-process']).default('process')),
    OIDC_ISSUER_URL: optionalUrl,
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    LOG_LEVEL: z.preprocess(
      emptyToUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    MARKETPLACE_TZ: z.preprocess(emptyToUndefined, z.string().default('America/Chicago')),
    TRUST_PROXY: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
    S3_BUCKET: optionalString.pipe(
      z
        .string()
        .regex(
          /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
          'must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)',
        )
        .optional(),
    ),
    S3_ENDPOINT: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).optional(),
    ),
    S3_REGION: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
    STRIPE_SECRET_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
        .optional(),
    ),
    STRIPE_PUBLISHABLE_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key (pk_test_… or pk_live_…)')
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: optionalString.pipe(
      z
        .string()
        .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
        .optional(),
    ),
    /** The Connect webhook's signing secret (account.updated); STRIPE_WEBHOOK_SECRET when absent. */
    STRIPE_CONNECT_WEBHOOK_SECRET: optionalString.pipe(
      z
        .string()
        .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
        .optional(),
    ),
    /**
     * Production refuses to take payments with the built-in test provider (no real money moves)
     * unless this says so (docs/operations.md).
     */
    ALLOW_TEST_PAYMENTS: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
    /** How often live events become mail and push and the outbox is sent; 0 turns it off (tests). */
    NOTIFY_INTERVAL_MS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(0).max(3_600_000).default(2_000),
    ),
    /** How often unfinished payments and refunds are finished (after the run at start-up); 0 turns it off (tests). */
    MONEY_RETRY_INTERVAL_MS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(0).max(86_400_000).default(60_000),
    ),
    /** How often the payout retry job runs (after the run at start-up); 0 turns it off (tests). */
    PAYOUT_RETRY_INTERVAL_MS: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(0).max(86_400_000).default(60_000),
    ),
    /**
     * How long a finished order's transfers to its seller and driver wait (the return window): a
     * refund within it moves no money back from them (docs/decisions/0018-money-against-stripe.md,
     * Refunds). 72 hours by default; 0 pays at once.
     */
    PAYOUT_HOLD_HOURS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .min(0)
        .max(24 * 90)
        .default(72),
    ),
    /**
     * Web Push's VAPID key pair (base64url, as `web-push generate-vapid-keys` prints it) and the
     * contact it names (mailto: or https:); without the keys they are generated once into
     * DATA_DIR/vapid.json (docs/decisions/0019-reaching-people.md, Push and the installable app).
     */
    VAPID_PUBLIC_KEY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{80,90}$/, 'must be a base64url P-256 public key')
        .optional(),
    ),
    VAPID_PRIVATE_KEY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{40,45}$/, 'must be a base64url P-256 private key')
        .optional(),
    ),
    /**
     * Lets push endpoints be private addresses and plain http (local development, the tests' push
     * service); off by default (docs/decisions/0023-accounts-an-attacker-cannot-bend.md).
     */
    PUSH_ALLOW_PRIVATE_HOSTS: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
    VAPID_SUBJECT: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: address or an https:// URL')
        .optional(),
    ),
    /** Outgoing mail through SMTP (docs/decisions/0019-reaching-people.md, Mail); logged and kept in the database when absent. */
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' }).optional(),
    ),
    /**
     * Rate limits counted in Redis instead of the database (docs/decisions/0003-rate-limits.md,
     * Counted in Redis); the database counts them when absent.
     */
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^rediss?$/, message: 'must be a redis:// or rediss:// URL' }).optional(),
    ),
    MAIL_FROM: z.preprocess(
      emptyToUndefined,
      z.string().default('Local Delivery Marketplace <no-reply@localhost>'),
    ),
    /** Where contact messages go; the company's support address by default. */
    SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email('must be an email address').optional()),
    /** Tests point the Stripe adapter at a local server that speaks Stripe's API. */
    STRIPE_API_BASE: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).optional(),
    ),
  })
  .superRefine((env, ctx) => {
    const oidc = [env.OIDC_ISSUER_URL, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    const set = oidc.filter((v) => v !== undefined).length;
    if (set > 0 && set < 3) {
      for (const key of ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
        if (env[key] === undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when any OIDC_ setting is set' });
      }
    }
    const s3Settings = [
      env.S3_BUCKET,
      env.S3_ENDPOINT,
      env.S3_REGION,
      env.S3_ACCESS_KEY_ID,
      env.S3_SECRET_ACCESS_KEY,
      env.S3_FORCE_PATH_STYLE,
    ];
    if (s3Settings.some((v) => v !== undefined)) {
      // Region, endpoint and path style have defaults; the bucket and the key pair do not.
      for (const key of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (env[key] === undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when any S3_ setting is set' });
      }
    }
    const stripeKeys = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;
    if (
      [...stripeKeys, 'STRIPE_API_BASE' as const, 'STRIPE_CONNECT_WEBHOOK_SECRET' as const].some(
        (key) => env[key] !== undefined,
      )
    ) {
      // Payments by Stripe need all three keys; without any, the built-in test provider runs.
      for (const key of stripeKeys) {
        if (env[key] === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required when any STRIPE_ setting is set',
          });
      }
    }
    if (
      env.NODE_ENV === 'production' &&
      env.STRIPE_SECRET_KEY === undefined &&
      env.ALLOW_TEST_PAYMENTS !== 'true'
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message:
          'is required in production: without Stripe the built-in test provider takes no real money (set ALLOW_TEST_PAYMENTS=true to run on it anyway)',
      });
    }
    checkLiveMoney(env, ctx);
    if ((env.VAPID_PUBLIC_KEY === undefined) !== (env.VAPID_PRIVATE_KEY === undefined)) {
      const missing = env.VAPID_PUBLIC_KEY === undefined ? 'VAPID_PUBLIC_KEY' : 'VAPID_PRIVATE_KEY';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is required when the other VAPID key is set',
      });
    }
    if (env.NODE_ENV === 'production' && env.SESSION_SECRET === undefined) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production' });
    }
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: env.MARKETPLACE_TZ });
    } catch {
      ctx.addIssue({ code: 'custom', path: ['MARKETPLACE_TZ'], message: 'is not a known time zone' });
    }
    if (env.ADMIN_EMAILS !== undefined) {
      for (const email of splitList(env.ADMIN_EMAILS)) {
        if (!z.email().safeParse(email).success)
          ctx.addIssue({
            code: 'custom',
            path: ['ADMIN_EMAILS'],
            message: `"${email}" is not an email address`,
          });
      }
    }
  });

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
}

export interface OidcConfig {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface S3Config {
  bucket: string;
  /** An S3-compatible service (MinIO, R2, ...); undefined means AWS S3 itself. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket in the path (endpoint/bucket/key) instead of the host name (bucket.endpoint/key). */
  forcePathStyle: boolean;
}

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /**
   * Signs the Connect webhook (a separate endpoint in Stripe's dashboard has its own secret);
   * undefined means the Connect events are signed with `webhookSecret`.
   */
  connectWebhookSecret?: string | undefined;
  /** Where Stripe's API is; https://api.stripe.com unless a test points it elsewhere. */
  apiBase: string | undefined;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL's connections send repeated statements under names (prepared once per connection). */
  preparedStatements: boolean;
  publicUrl: string | undefined;
  /** Where links in mail point: PUBLIC_URL, or http://localhost:<PORT> without it. */
  siteUrl: string;
  /** SMTP_URL: mail goes out through this server; undefined means logged (and kept in the outbox). */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender of every mail. */
  mailFrom: string;
  /** REDIS_URL: rate limits are counted there; undefined means in the database. */
  redisUrl: string | undefined;
  /** SUPPORT_EMAIL: where contact messages go. */
  supportEmail: string;
  /** Secret for signing cookies and upload URLs; generated and kept under dataDir when not given. */
  sessionSecret: string | undefined;
  adminEmails: string[];
  /**
   * ADMIN_TWO_FACTOR: administrators must turn on two-factor sign-in before anything else (local
   * accounts only: with OpenID Connect the identity provider asks for factors).
   */
  adminTwoFactor: 'required' | 'optional';
  demoData: boolean;
  /** The embedded database in a process of its own, or in the server's (without DATABASE_URL). */
  embeddedDatabase: 'process' | 'in-process';
  oidc: OidcConfig | undefined;
  logLevel: string;
  marketplaceTz: string;
  /** Behind a reverse proxy: take the client address and protocol from X-Forwarded-* headers. */
  trustProxy: boolean;
  /**
   * Object storage in an S3-compatible store; files under dataDir/objects when absent
   * (docs/rules/running.md, Running modes and adapters).
   */
  s3: S3Config | undefined;
  /**
   * Payments by Stripe; the built-in test provider with a ledger in the database when absent
   * (docs/rules/running.md, Running modes and adapters).
   */
  stripe: StripeConfig | undefined;
  /** Production runs on the test provider only when this is set (ALLOW_TEST_PAYMENTS=true). */
  allowTestPayments: boolean;
  /** NOTIFY_INTERVAL_MS: the notifications timer (docs/decisions/0019-reaching-people.md); 0 turns it off. */
  notifyIntervalMs: number;
  /** MONEY_RETRY_INTERVAL_MS: the timer of unfinished payments and refunds; 0 turns it off. */
  moneyRetryIntervalMs: number;
  /** PAYOUT_RETRY_INTERVAL_MS: the payout retry job's timer; 0 turns it off. */
  payoutRetryIntervalMs: number;
  /** PAYOUT_HOLD_HOURS in milliseconds: a finished order's transfers wait this long. */
  payoutHoldMs: number;
  /** Web Push's VAPID keys when set; generated into dataDir otherwise (src/server/secrets.ts). */
  vapid: { publicKey: string; privateKey: string } | undefined;
  /** Whom push services may contact about this sender: VAPID_SUBJECT, else PUBLIC_URL when https. */
  vapidSubject: string;
  /** PUSH_ALLOW_PRIVATE_HOSTS: push endpoints may be private addresses and http (development only). */
  pushAllowPrivateHosts: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path.join('.') || 'environment';
        const value = typeof issue.path[0] === 'string' ? source[issue.path[0]] : undefined;
        const shown =
          value === undefined || /SECRET|PRIVATE|SMTP_URL|REDIS_URL/.test(key) ? '' : ` (got "${value}")`;
        return `${key}: ${issue.message}${shown}`;
      }),
    );
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS === 'on',
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
    siteUrl: env.PUBLIC_URL?.replace(/\/+$/, '') ?? `http://localhost:${env.PORT}`,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    redisUrl: env.REDIS_URL,
    supportEmail: env.SUPPORT_EMAIL ?? COMPANY.email,
    sessionSecret: env.SESSION_SECRET,
    adminEmails: env.ADMIN_EMAILS ? splitList(env.ADMIN_EMAILS) : [],
    adminTwoFactor: env.ADMIN_TWO_FACTOR ?? (env.NODE_ENV === 'production' ? 'required' : 'optional'),
    demoData: env.DEMO_DATA === 'on',
    embeddedDatabase: env.EMBEDDED_DATABASE,
    oidc:
      env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? {
            issuerUrl: env.OIDC_ISSUER_URL,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
          }
        : undefined,
    logLevel: env.LOG_LEVEL,
    marketplaceTz: env.MARKETPLACE_TZ,
    trustProxy: env.TRUST_PROXY === 'true',
    s3:
      env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? {
            bucket: env.S3_BUCKET,
            endpoint: env.S3_ENDPOINT?.replace(/\/+$/, ''),
            region: env.S3_REGION ?? 'us-east-1',
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            // Most S3-compatible servers (MinIO, s3rver) only know path-style addresses.
            forcePathStyle: env.S3_FORCE_PATH_STYLE
              ? env.S3_FORCE_PATH_STYLE === 'true'
              : env.S3_ENDPOINT !== undefined,
          }
        : undefined,
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            publishableKey: env.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            connectWebhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET,
            apiBase: env.STRIPE_API_BASE?.replace(/\/+$/, ''),
          }
        : undefined,
    allowTestPayments: env.ALLOW_TEST_PAYMENTS === 'true',
    moneyRetryIntervalMs: env.MONEY_RETRY_INTERVAL_MS,
    payoutRetryIntervalMs: env.PAYOUT_RETRY_INTERVAL_MS,
    notifyIntervalMs: env.NOTIFY_INTERVAL_MS,
    payoutHoldMs: Math.round(env.PAYOUT_HOLD_HOURS * 60 * 60 * 1000),
    vapid:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject:
      env.VAPID_SUBJECT ??
      (env.PUBLIC_URL?.startsWith('https://')
        ? env.PUBLIC_URL.replace(/\/+$/, '')
        : 'mailto:push@localhost.invalid'),
    pushAllowPrivateHosts: env.PUSH_ALLOW_PRIVATE_HOSTS === 'true',
  };
}
