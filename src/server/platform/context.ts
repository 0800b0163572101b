import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Mailer } from '../adapters/mail/mailer';
import type { IdentityProvider } from '../adapters/identity/identity-provider';
import type { RateLimits } from './rate-limit';

/** What every module's routes get: the database, the settings and the adapters. */
export interface AppContext {
  db: Db;
  config: Config;
  mailer: Mailer;
  /** Present in OIDC mode; local email + password accounts otherwise (DECISIONS §1). */
  identity: IdentityProvider | undefined;
  rateLimits: RateLimits;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
