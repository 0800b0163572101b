import { StripeHttpError, type FakeStripeRoute, type ParsedForm } from './stripe-protocol';

/**
 * Stripe's balances for the local Stripe server: the balance transactions of the platform and of
 * each connected account, their balances, and the automatic payouts that empty a connected account
 * (docs/decisions/0018-money-against-stripe.md, The local Stripe server). As Stripe documents them:
 * - GET /v1/balance: `available` and `pending` per currency (the platform also has `connect_reserved`)
 * - GET /v1/balance_transactions (created[gte|gt|lte|lt], type, source, payout, currency; limit,
 *   starting_after, ending_before), newest first; GET /v1/balance_transactions/:id
 * - GET /v1/payouts and GET /v1/payouts/:id (the automatic payouts of a connected account)
 * each for the platform, or for a connected account when the request names it in `Stripe-Account`.
 * A balance transaction is `pending` until its `available_on`, then `available`; the status is
 * worked out against the server's clock whenever it is read.
 */

/** The platform's own balance (a connected account's is keyed by its acct_… id). */
export const PLATFORM = 'platform';

const DAY_SECONDS = 24 * 60 * 60;

export interface FakeFeeDetail {
  amount: number;
  application: string | null;
  currency: string;
  description: string | null;
  type: 'stripe_fee' | 'application_fee' | 'tax';
}

export type FakeBalanceTransactionType =
  | 'charge'
  | 'refund'
  | 'refund_failure'
  | 'transfer'
  | 'transfer_refund'
  | 'payment'
  | 'payment_refund'
  | 'payout'
  | 'adjustment'
  | 'stripe_fee'
  | 'topup';

export interface FakeBalanceTransaction {
  id: string;
  object: 'balance_transaction';
  amount: number;
  available_on: number;
  balance_type: 'payments';
  created: number;
  currency: string;
  description: string | null;
  exchange_rate: null;
  fee: number;
  fee_details: FakeFeeDetail[];
  net: number;
  reporting_category: string;
  source: string | null;
  status: 'pending' | 'available';
  type: FakeBalanceTransactionType;
}

export interface FakePayout {
  id: string;
  object: 'payout';
  amount: number;
  arrival_date: number;
  automatic: boolean;
  balance_transaction: string;
  created: number;
  currency: string;
  description: string | null;
  destination: string | null;
  metadata: Record<string, string>;
  method: 'standard';
  source_type: 'card';
  statement_descriptor: string | null;
  status: 'paid';
  type: 'bank_account';
  livemode: false;
}

/** `settings.payouts.schedule` of a connected account. */
export interface FakePayoutSchedule {
  delay_days: number;
  interval: 'daily' | 'weekly' | 'monthly' | 'manual';
  weekly_anchor?: string;
  monthly_anchor?: number;
}

export interface FakeBalancesOptions {
  /** Stripe's standard card pricing: 2.9% + 30¢ (US). */
  processingFee?: { percent: number; fixed: number };
  /** Days before a charge's funds are available (US card payments: 2). */
  availableAfterDays?: number;
  /** Hour (UTC) of the daily automatic payout run. */
  payoutHourUtc?: number;
}

export interface RecordInput {
  amount: number;
  currency: string;
  type: FakeBalanceTransactionType;
  reporting_category: string;
  source: string | null;
  description?: string | null;
  fee_details?: FakeFeeDetail[];
  /** Seconds; default: available now. */
  available_on?: number;
  /** Seconds; default: now (a payout run passed by `advance` is dated at its run). */
  created?: number;
}

export interface FakeBalances {
  route: FakeStripeRoute;
  options: Required<FakeBalancesOptions>;
  /** Stripe's processing fee on a charge of `amount` cents, rounded to the nearest cent. */
  processingFee(amount: number): number;
  /** When a charge made at `createdSeconds` is available (seconds). */
  availableOn(createdSeconds: number): number;
  /** Adds a balance transaction to an account (PLATFORM or acct_…); fee and net follow from fee_details. */
  record(account: string, input: RecordInput): FakeBalanceTransaction;
  /** The balance transactions of an account, oldest first, statuses as of now. */
  transactionsOf(account?: string): FakeBalanceTransaction[];
  /** A balance transaction of any account, with the account it belongs to. */
  find(id: string): { account: string; transaction: FakeBalanceTransaction } | undefined;
  /** Available and pending amounts of an account in a currency, as of now. */
  balanceOf(account?: string, currency?: string): { available: number; pending: number };
  /**
   * Takes a balance transaction out of its account, as if Stripe had never made it (for tests of
   * reconcile against the provider); answers a function that puts it back where it was.
   */
  remove(id: string): () => void;
  /** Automatic payouts made so far, by account. */
  payouts: Map<string, FakePayout[]>;
  /**
   * Pays out the whole available balance of every connected account whose schedule is not manual
   * (or only `accounts`), as an automatic payout run does; answers the payouts made.
   */
  payOutAll(accounts?: string[]): FakePayout[];
  /** The clock moved from `fromMs` to `toMs`: runs the scheduled payouts in between. */
  tick(fromMs: number, toMs: number): FakePayout[];
  /** Tells the balances which connected accounts exist and how each is paid out. */
  bind(sources: { schedules: () => Map<string, FakePayoutSchedule> }): void;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

export function createFakeBalances(
  clock: { now(): number; id(prefix: string): string },
  options: FakeBalancesOptions = {},
): FakeBalances {
  const settings: Required<FakeBalancesOptions> = {
    processingFee: options.processingFee ?? { percent: 2.9, fixed: 30 },
    availableAfterDays: options.availableAfterDays ?? 2,
    payoutHourUtc: options.payoutHourUtc ?? 0,
  };
  const ledgers = new Map<string, FakeBalanceTransaction[]>();
  const paidOutBy = new Map<string, string>();
  const payouts = new Map<string, FakePayout[]>();
  let schedules = () => new Map<string, FakePayoutSchedule>();
  const seconds = () => Math.floor(clock.now() / 1000);

  const ledgerOf = (account: string) => {
    let ledger = ledgers.get(account);
    if (!ledger) {
      ledger = [];
      ledgers.set(account, ledger);
    }
    return ledger;
  };
  const settle = (account: string, atSeconds = seconds()) => {
    const ledger = ledgerOf(account);
    for (const txn of ledger)
      if (txn.status === 'pending' && txn.available_on <= atSeconds) txn.status = 'available';
    return ledger;
  };
  const sums = (account: string, currency: string, atSeconds = seconds()) => {
    let available = 0;
    let pending = 0;
    for (const txn of settle(account, atSeconds)) {
      if (txn.currency !== currency) continue;
      if (txn.status === 'available') available += txn.net;
      else pending += txn.net;
    }
    return { available, pending };
  };

  const record = (account: string, input: RecordInput): FakeBalanceTransaction => {
    const created = input.created ?? seconds();
    const feeDetails = input.fee_details ?? [];
    const fee = feeDetails.reduce((sum, detail) => sum + detail.amount, 0);
    const txn: FakeBalanceTransaction = {
      id: clock.id('txn'),
      object: 'balance_transaction',
      amount: input.amount,
      available_on: input.available_on ?? created,
      balance_type: 'payments',
      created,
      currency: input.currency,
      description: input.description ?? null,
      exchange_rate: null,
      fee,
      fee_details: feeDetails,
      net: input.amount - fee,
      reporting_category: input.reporting_category,
      source: input.source,
      status: (input.available_on ?? created) <= created ? 'available' : 'pending',
      type: input.type,
    };
    ledgerOf(account).push(txn);
    return txn;
  };

  const payOut = (account: string, atSeconds: number): FakePayout[] => {
    const made: FakePayout[] = [];
    const currencies = new Set(settle(account, atSeconds).map((txn) => txn.currency));
    for (const currency of currencies) {
      const { available } = sums(account, currency, atSeconds);
      if (available <= 0) continue;
      const id = clock.id('po');
      const txn = record(account, {
        amount: -available,
        currency,
        type: 'payout',
        reporting_category: 'payout',
        source: id,
        description: 'STRIPE PAYOUT',
        created: atSeconds,
      });
      for (const paid of ledgerOf(account))
        if (paid.currency === currency && paid.status === 'available' && !paidOutBy.has(paid.id))
          paidOutBy.set(paid.id, id);
      const payout: FakePayout = {
        id,
        object: 'payout',
        amount: available,
        arrival_date: atSeconds,
        automatic: true,
        balance_transaction: txn.id,
        created: atSeconds,
        currency,
        description: 'STRIPE PAYOUT',
        destination: null,
        metadata: {},
        method: 'standard',
        source_type: 'card',
        statement_descriptor: null,
        status: 'paid',
        type: 'bank_account',
        livemode: false,
      };
      const list = payouts.get(account) ?? [];
      list.push(payout);
      payouts.set(account, list);
      made.push(payout);
    }
    return made;
  };

  const isPayoutDay = (schedule: FakePayoutSchedule, atSeconds: number) => {
    const day = new Date(atSeconds * 1000);
    if (schedule.interval === 'daily') return true;
    if (schedule.interval === 'weekly')
      return WEEKDAYS[day.getUTCDay()] === (schedule.weekly_anchor ?? 'monday');
    if (schedule.interval === 'monthly') return day.getUTCDate() === (schedule.monthly_anchor ?? 1);
    return false;
  };

  const payOutAll = (accounts?: string[], atSeconds = seconds()) => {
    const made: FakePayout[] = [];
    for (const [account, schedule] of schedules()) {
      if (accounts ? !accounts.includes(account) : schedule.interval === 'manual') continue;
      made.push(...payOut(account, atSeconds));
    }
    return made;
  };

  const tick = (fromMs: number, toMs: number) => {
    const made: FakePayout[] = [];
    const hourMs = settings.payoutHourUtc * 60 * 60 * 1000;
    const dayMs = DAY_SECONDS * 1000;
    // Every payout time in (from, to]: the day's payout hour, UTC.
    for (let run = Math.floor((fromMs - hourMs) / dayMs + 1) * dayMs + hourMs; run <= toMs; run += dayMs) {
      const at = Math.floor(run / 1000);
      for (const [account, schedule] of schedules())
        if (schedule.interval !== 'manual' && isPayoutDay(schedule, at)) made.push(...payOut(account, at));
    }
    return made;
  };

  const accountOf = (stripeAccount: string | undefined) => stripeAccount ?? PLATFORM;

  const route: FakeStripeRoute = (req) => {
    const { method, path, query } = req;
    if (method !== 'GET') return undefined;
    const account = accountOf(req.stripeAccount);
    if (path === '/v1/balance') {
      const ledger = settle(account);
      const currencies = [...new Set(ledger.map((txn) => txn.currency))];
      if (currencies.length === 0) currencies.push('usd');
      const amounts = currencies.map((currency) => ({ currency, ...sums(account, currency) }));
      return {
        body: {
          object: 'balance',
          available: amounts.map((a) => ({
            amount: a.available,
            currency: a.currency,
            source_types: { card: a.available },
          })),
          pending: amounts.map((a) => ({
            amount: a.pending,
            currency: a.currency,
            source_types: { card: a.pending },
          })),
          ...(account === PLATFORM
            ? { connect_reserved: currencies.map((currency) => ({ amount: 0, currency })) }
            : {}),
          livemode: false,
        },
      };
    }
    if (path === '/v1/balance_transactions') return { body: listTransactions(account, req.queryForm, query) };
    const txnMatch = /^\/v1\/balance_transactions\/([^/]+)$/.exec(path);
    if (txnMatch?.[1]) {
      const id = decodeURIComponent(txnMatch[1]);
      const txn = settle(account).find((t) => t.id === id);
      if (!txn)
        throw new StripeHttpError(
          404,
          'invalid_request_error',
          `No such balance transaction: '${id}'`,
          'resource_missing',
          'id',
        );
      return { body: txn };
    }
    if (path === '/v1/payouts') {
      settle(account);
      const list = (payouts.get(account) ?? []).slice().reverse();
      return { body: pageOf(list, query, '/v1/payouts') };
    }
    const payoutMatch = /^\/v1\/payouts\/([^/]+)$/.exec(path);
    if (payoutMatch?.[1]) {
      const id = decodeURIComponent(payoutMatch[1]);
      const payout = (payouts.get(account) ?? []).find((p) => p.id === id);
      if (!payout)
        throw new StripeHttpError(
          404,
          'invalid_request_error',
          `No such payout: '${id}'`,
          'resource_missing',
          'id',
        );
      return { body: payout };
    }
    return undefined;
  };

  const listTransactions = (account: string, form: ParsedForm, query: URLSearchParams) => {
    const created = (op: string) => {
      const value = form.get('created', op);
      return value === undefined ? undefined : Number(value);
    };
    const exact = form.flat.get('created');
    const [gte, gt, lte, lt] = ['gte', 'gt', 'lte', 'lt'].map(created);
    const type = query.get('type');
    const source = query.get('source');
    const payout = query.get('payout');
    const currency = query.get('currency');
    const found = settle(account)
      .filter(
        (txn) =>
          (exact === undefined || txn.created === Number(exact)) &&
          (gte === undefined || txn.created >= gte) &&
          (gt === undefined || txn.created > gt) &&
          (lte === undefined || txn.created <= lte) &&
          (lt === undefined || txn.created < lt) &&
          (!type || txn.type === type) &&
          (!source || txn.source === source) &&
          (!payout || paidOutBy.get(txn.id) === payout || (txn.type === 'payout' && txn.source === payout)) &&
          (!currency || txn.currency === currency),
      )
      .reverse();
    return pageOf(found, query, '/v1/balance_transactions');
  };

  return {
    route,
    options: settings,
    processingFee: (amount) =>
      Math.round((amount * Math.round(settings.processingFee.percent * 100)) / 10000) +
      settings.processingFee.fixed,
    availableOn: (createdSeconds) => createdSeconds + settings.availableAfterDays * DAY_SECONDS,
    record,
    transactionsOf: (account = PLATFORM) => settle(account).slice(),
    find(id) {
      for (const account of ledgers.keys()) {
        const transaction = settle(account).find((txn) => txn.id === id);
        if (transaction) return { account, transaction };
      }
      return undefined;
    },
    balanceOf: (account = PLATFORM, currency = 'usd') => sums(account, currency),
    remove(id) {
      for (const ledger of ledgers.values()) {
        const index = ledger.findIndex((txn) => txn.id === id);
        const [removed] = index >= 0 ? ledger.splice(index, 1) : [];
        if (removed) return () => void ledger.splice(index, 0, removed);
      }
      throw new Error(`no balance transaction ${id}`);
    },
    payouts,
    payOutAll: (accounts) => payOutAll(accounts),
    tick,
    bind(sources) {
      schedules = sources.schedules;
    },
  };
}

/** Stripe's list envelope with limit, starting_after and ending_before over items newest first. */
export function pageOf<T extends { id: string }>(items: T[], query: URLSearchParams, url: string) {
  const limit = Math.min(Math.max(Number(query.get('limit') ?? 10) || 10, 1), 100);
  const after = query.get('starting_after');
  const before = query.get('ending_before');
  if (before) {
    const end = items.findIndex((item) => item.id === before);
    const start = Math.max(0, end - limit);
    return { object: 'list', url, has_more: start > 0, data: items.slice(start, Math.max(end, 0)) };
  }
  const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
  return {
    object: 'list',
    url,
    has_more: start + limit < items.length,
    data: items.slice(start, start + limit),
  };
}
