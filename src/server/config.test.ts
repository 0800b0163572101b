import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('runs with no settings at all: embedded database on port 5000 with demo data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 5000,
      databaseUrl: undefined,
      preparedStatements: true,
      demoData: true,
      oidc: undefined,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('names each bad setting in its message', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      PUBLIC_URL: 'not a url',
      DEMO_DATA: 'maybe',
      DATABASE_PREPARED_STATEMENTS: 'no',
    });
    expect(problems.some((p) => p.startsWith('PORT:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('DATABASE_URL: must be a postgres://'))).toBe(true);
    expect(problems.some((p) => p.startsWith('PUBLIC_URL:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('DEMO_DATA:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('DATABASE_PREPARED_STATEMENTS:'))).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe(false);
  });

  it('wants all three OIDC settings or none', () => {
    const problems = problemsOf({ OIDC_ISSUER_URL: 'https://id.example' });
    expect(problems).toEqual([
      'OIDC_CLIENT_ID: is required when any OIDC_ setting is set',
      'OIDC_CLIENT_SECRET: is required when any OIDC_ setting is set',
    ]);
  });

  it('rejects a short session secret without printing it', () => {
    const problems = problemsOf({ SESSION_SECRET: 'tooshort' });
    expect(problems).toEqual(['SESSION_SECRET: must be at least 32 characters']);
  });

  it('reads the mail settings (docs/decisions/0019-reaching-people.md, Mail), never printing the SMTP URL', () => {
    expect(loadConfig({ PORT: '5050' })).toMatchObject({
      smtpUrl: undefined,
      mailFrom: 'Local Delivery Marketplace <no-reply@localhost>',
      supportEmail: 'support@localdelivery.example',
      siteUrl: 'http://localhost:5050',
    });
    expect(
      loadConfig({
        SMTP_URL: 'smtps://mailer:pw@mail.example:465',
        SUPPORT_EMAIL: 'help@market.example',
        PUBLIC_URL: 'https://market.example/',
      }),
    ).toMatchObject({
      smtpUrl: 'smtps://mailer:pw@mail.example:465',
      supportEmail: 'help@market.example',
      siteUrl: 'https://market.example',
    });
    expect(problemsOf({ SMTP_URL: 'http://mailer:secret-pw@mail.example', SUPPORT_EMAIL: 'nope' })).toEqual([
      'SMTP_URL: must be an smtp:// or smtps:// URL',
      'SUPPORT_EMAIL: must be an email address (got "nope")',
    ]);
  });

  it('counts rate limits in Redis only when REDIS_URL is a redis URL, never printing it', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.example:6380' }).redisUrl).toBe(
      'rediss://:pw@cache.example:6380',
    );
    expect(problemsOf({ REDIS_URL: 'http://:secret-pw@cache.example' })).toEqual([
      'REDIS_URL: must be a redis:// or rediss:// URL',
    ]);
  });

  it('requires a session secret in production', () => {
    expect(problemsOf({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' })).toEqual([
      'SESSION_SECRET: is required in production',
    ]);
  });

  it('refuses the test payment provider in production unless ALLOW_TEST_PAYMENTS=true', () => {
    const secret = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) };
    expect(problemsOf(secret)).toEqual([
      'STRIPE_SECRET_KEY: is required in production: without Stripe the built-in test provider takes no real money (set ALLOW_TEST_PAYMENTS=true to run on it anyway)',
    ]);
    expect(problemsOf({ ...secret, ALLOW_TEST_PAYMENTS: 'yes' })[0]).toMatch(/^ALLOW_TEST_PAYMENTS:/);
    expect(loadConfig({ ...secret, ALLOW_TEST_PAYMENTS: 'true' })).toMatchObject({
      stripe: undefined,
      allowTestPayments: true,
    });
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_live_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    };
    expect(problemsOf({ ...secret, ...stripe })).toEqual([]);
    // Outside production the test provider needs no flag (npm start, the tests).
    expect(problemsOf({})).toEqual([]);
  });

  it('refuses test money in production: test keys, mixed keys and an API base, each by name, unless ALLOW_TEST_PAYMENTS=true', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) };
    const test = {
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    };
    const allow = '(set ALLOW_TEST_PAYMENTS=true to run on test money anyway)';
    expect(problemsOf({ ...production, ...test })).toEqual([
      `STRIPE_SECRET_KEY: is a test key: production takes real money only with a live key (sk_live_…) ${allow}`,
      `STRIPE_PUBLISHABLE_KEY: is a test key: production takes real money only with a live key (pk_live_…) ${allow} (got "pk_test_abc")`,
    ]);
    const live = { ...test, STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' };
    expect(problemsOf({ ...production, ...live, STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toEqual([
      `STRIPE_API_BASE: points the payments away from Stripe: production talks to Stripe itself ${allow} (got "http://127.0.0.1:12111")`,
    ]);
    expect(problemsOf({ ...production, ...live, STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toEqual([
      'STRIPE_PUBLISHABLE_KEY: is a test key but STRIPE_SECRET_KEY is a live key: both must be of the same mode (got "pk_test_abc")',
      `STRIPE_PUBLISHABLE_KEY: is a test key: production takes real money only with a live key (pk_live_…) ${allow} (got "pk_test_abc")`,
    ]);
    // A restricted live key is a live key.
    expect(problemsOf({ ...production, ...live, STRIPE_SECRET_KEY: 'rk_live_abc' })).toEqual([]);
    // Allowed on purpose (a staging deployment), test keys and a local API base start.
    expect(
      loadConfig({
        ...production,
        ...test,
        STRIPE_API_BASE: 'http://127.0.0.1:12111',
        ALLOW_TEST_PAYMENTS: 'true',
      }).stripe?.secretKey,
    ).toBe('sk_test_abc');
    // Keys of two modes never work together, in any environment.
    expect(problemsOf({ ...test, STRIPE_SECRET_KEY: 'sk_live_abc' })).toEqual([
      'STRIPE_PUBLISHABLE_KEY: is a test key but STRIPE_SECRET_KEY is a live key: both must be of the same mode (got "pk_test_abc")',
    ]);
    // Outside production test keys are what developers use.
    expect(problemsOf(test)).toEqual([]);
  });

  it('reads the money timer interval, 60 seconds unless set, 0 to turn it off', () => {
    expect(loadConfig({}).moneyRetryIntervalMs).toBe(60_000);
    expect(loadConfig({ MONEY_RETRY_INTERVAL_MS: '0' }).moneyRetryIntervalMs).toBe(0);
    expect(loadConfig({}).payoutRetryIntervalMs).toBe(60_000);
    expect(loadConfig({ PAYOUT_RETRY_INTERVAL_MS: '5000' }).payoutRetryIntervalMs).toBe(5_000);
    expect(problemsOf({ MONEY_RETRY_INTERVAL_MS: '-5' })[0]).toMatch(/^MONEY_RETRY_INTERVAL_MS:/);
  });

  it('parses admin emails and rejects a malformed one', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' Boss@Example.com , ops@example.com' }).adminEmails).toEqual([
      'boss@example.com',
      'ops@example.com',
    ]);
    expect(problemsOf({ ADMIN_EMAILS: 'boss' })).toEqual([
      'ADMIN_EMAILS: "boss" is not an email address (got "boss")',
    ]);
  });

  it('requires two-factor sign-in of admins in production unless ADMIN_TWO_FACTOR says otherwise', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      ALLOW_TEST_PAYMENTS: 'true',
    };
    expect(loadConfig(production).adminTwoFactor).toBe('required');
    expect(loadConfig({ ...production, ADMIN_TWO_FACTOR: 'optional' }).adminTwoFactor).toBe('optional');
    // The demo and the tests sign in as before.
    expect(loadConfig({}).adminTwoFactor).toBe('optional');
    expect(loadConfig({ NODE_ENV: 'test' }).adminTwoFactor).toBe('optional');
    expect(loadConfig({ ADMIN_TWO_FACTOR: 'required' }).adminTwoFactor).toBe('required');
    expect(problemsOf({ ADMIN_TWO_FACTOR: 'yes' })[0]).toMatch(/^ADMIN_TWO_FACTOR:/);
  });

  it('keeps objects on disk without S3 settings, and wants the bucket and both keys once any S3_ is set', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(problemsOf({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([
      'S3_BUCKET: is required when any S3_ setting is set',
      'S3_ACCESS_KEY_ID: is required when any S3_ setting is set',
      'S3_SECRET_ACCESS_KEY: is required when any S3_ setting is set',
    ]);
    expect(
      problemsOf({ S3_BUCKET: 'Bad_Bucket', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }),
    ).toEqual([
      'S3_BUCKET: must be a bucket name (3-63 lower-case letters, digits, dots, hyphens) (got "Bad_Bucket")',
    ]);
    const keys = { S3_BUCKET: 'market-images', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(problemsOf({ ...keys, S3_ENDPOINT: 'ftp://files.example' })).toEqual([
      'S3_ENDPOINT: must be an http:// or https:// URL (got "ftp://files.example")',
    ]);
    expect(loadConfig(keys).s3).toEqual({
      bucket: 'market-images',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
    expect(
      loadConfig({ ...keys, S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_REGION: 'auto' }).s3,
    ).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      region: 'auto',
      forcePathStyle: true,
    });
    expect(
      loadConfig({ ...keys, S3_ENDPOINT: 'https://r2.example', S3_FORCE_PATH_STYLE: 'false' }).s3
        ?.forcePathStyle,
    ).toBe(false);
  });

  it('never prints the S3 secret key', () => {
    expect(problemsOf({ S3_SECRET_ACCESS_KEY: 'hunter2' }).join('\n')).not.toContain('hunter2');
  });

  it('takes payments with the test provider without Stripe settings, and wants all three Stripe keys once any is set', () => {
    expect(loadConfig({}).stripe).toBeUndefined();
    expect(problemsOf({ STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toEqual([
      'STRIPE_SECRET_KEY: is required when any STRIPE_ setting is set',
      'STRIPE_PUBLISHABLE_KEY: is required when any STRIPE_ setting is set',
      'STRIPE_WEBHOOK_SECRET: is required when any STRIPE_ setting is set',
    ]);
    const keys = {
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    };
    expect(loadConfig(keys).stripe).toEqual({
      secretKey: 'sk_test_abc123',
      publishableKey: 'pk_test_abc123',
      webhookSecret: 'whsec_abc123',
      apiBase: undefined,
    });
    expect(loadConfig({ ...keys, STRIPE_API_BASE: 'http://127.0.0.1:12111/' }).stripe?.apiBase).toBe(
      'http://127.0.0.1:12111',
    );
    const wrong = problemsOf({ ...keys, STRIPE_SECRET_KEY: 'pk_test_oops', STRIPE_WEBHOOK_SECRET: 'secret' });
    expect(wrong).toEqual([
      'STRIPE_SECRET_KEY: must be a Stripe secret key (sk_test_… or sk_live_…)',
      'STRIPE_WEBHOOK_SECRET: must be a Stripe webhook signing secret (whsec_…)',
    ]);
  });

  it('takes a Connect webhook secret of its own, checked like the others, and wants the Stripe keys with it', () => {
    const keys = {
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    };
    expect(loadConfig(keys).stripe?.connectWebhookSecret).toBeUndefined();
    expect(
      loadConfig({ ...keys, STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect1' }).stripe?.connectWebhookSecret,
    ).toBe('whsec_connect1');
    expect(problemsOf({ ...keys, STRIPE_CONNECT_WEBHOOK_SECRET: 'secret' })).toEqual([
      'STRIPE_CONNECT_WEBHOOK_SECRET: must be a Stripe webhook signing secret (whsec_…)',
    ]);
    expect(problemsOf({ STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect1' })).toEqual([
      'STRIPE_SECRET_KEY: is required when any STRIPE_ setting is set',
      'STRIPE_PUBLISHABLE_KEY: is required when any STRIPE_ setting is set',
      'STRIPE_WEBHOOK_SECRET: is required when any STRIPE_ setting is set',
    ]);
  });

  it('turns demo data off with DEMO_DATA=off', () => {
    expect(loadConfig({ DEMO_DATA: 'off' }).demoData).toBe(false);
  });
});
