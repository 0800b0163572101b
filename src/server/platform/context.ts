import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Mailer } from '../adapters/mail/mailer';
import type { IdentityProvider } from '../adapters/identity/identity-provider';
import type { Geocoder } from '../adapters/geocoding/geocoder';
import type { ResolveHost } from './public-address';
import type { ObjectStorage } from '../adapters/storage/object-storage';
import type { ImageCopyScheduler } from '../modules/uploads/uploads.service';
import type { PaymentProvider } from '../adapters/payments/payment-provider';
import type { PayoutProvider } from '../adapters/payouts/payout-provider';
import type { RateLimits } from './rate-limit';
import type { LiveEventHub } from './live-event-hub';
import type { PublicAnswerCache } from './public-cache';
import type { SignedInReplays } from './signed-in-replays';
import type { KeptPrivateReads } from './kept-private-reads';
import type { VapidKeys } from '../secrets';
import type { Operations } from './operations';

/** What every module's routes get: the database, the settings, the adapters and the operations' bags. */
export interface AppContext {
  db: Db;
  config: Config;
  mailer: Mailer;
  /**
   * Present in OIDC mode; local email + password accounts otherwise
   * (docs/rules/running.md, Running modes and adapters).
   */
  identity: IdentityProvider | undefined;
  rateLimits: RateLimits;
  /**
   * Address validation and coordinates: offline ZIP centroids by default (docs/rules/running.md, Running
   * modes and adapters; docs/rules/catalog-and-orders.md, Addresses, availability and slots).
   */
  geocoder: Geocoder;
  /** Resolves a push endpoint's host before it is checked to be public (decision 0023). */
  resolveHost: ResolveHost;
  /**
   * Signs what the server hands a client to show back later: the proof that an address validation verified
   * exactly some fields (docs/rules/catalog-and-orders.md, Addresses, availability and slots). Derived from
   * the session secret.
   */
  signingKey: Buffer;
  /** The clock (pickup slots start an hour from now); tests pass a fixed one. */
  now: () => Date;
  /**
   * Uploaded files: under DATA_DIR/objects, or an S3-compatible store
   * (docs/rules/running.md, Running modes and adapters).
   */
  storage: ObjectStorage;
  /** Makes the resized copies of claimed product pictures (docs/decisions/0014-first-load.md). */
  imageCopies: ImageCopyScheduler;
  /**
   * Card payments and refunds: the built-in test provider, or Stripe when configured
   * (docs/rules/running.md, Running modes and adapters).
   */
  payments: PaymentProvider;
  /**
   * Payout accounts of sellers and drivers and the transfers to them: the built-in test provider,
   * or Stripe Connect when configured (docs/decisions/0013-money-movement.md, Transfers and the ledger).
   */
  payouts: PayoutProvider;
  /**
   * Each module's operations' bag, built once from the above with every setting filled in
   * (operations.ts); the orders' carries the money that follows their steps: refunds on cancel,
   * payouts when they finish (docs/ARCHITECTURE.md, Money flows one way).
   */
  ops: Operations;
  /**
   * The live-update streams of this instance (GET /api/events), fed by LISTEN on the database
   * (docs/rules/live-updates.md, Live updates).
   */
  live: LiveEventHub;
  /**
   * Finished answers of the public catalog lists, dropped on every catalog change
   * (docs/decisions/0015-catalog-and-checkout-throughput.md).
   */
  catalogCache: PublicAnswerCache;
  /** Signed-in reads kept in memory, behind a fence on PostgreSQL (kept-private-reads.ts). */
  privateReads: KeptPrivateReads;
  /** Signed-in reads answered from what is kept before the app's hooks (signed-in-replays.ts). */
  signedInReplays: SignedInReplays;
  /**
   * Web Push's VAPID key pair: from the environment or DATA_DIR/vapid.json
   * (docs/decisions/0019-reaching-people.md, Push and the installable app).
   */
  vapid: VapidKeys;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
