import crypto from 'node:crypto';
import { StripeHttpError, type FakeStripeRoute, type ParsedForm } from './stripe-server';
import type { FakePayoutSchedule } from './stripe-balances';

/**
 * Stripe Connect's account endpoints for the local Stripe server (passed as one of its `routes`),
 * as Stripe documents them:
 * - POST /v1/accounts (type, email, capabilities[transfers][requested], metadata[…],
 *   settings[payouts][schedule][interval|delay_days|weekly_anchor|monthly_anchor])
 * - GET  /v1/accounts/:id; POST /v1/accounts/:id (metadata[…], settings[payouts][schedule][…])
 * - POST /v1/account_links (account, type=account_onboarding|account_update, return_url, refresh_url)
 * - POST /v1/accounts/:id/login_links (Express accounts that finished onboarding only)
 * A new account is what Stripe answers before onboarding: details not submitted, the form's fields
 * currently (and past) due, disabled for `requirements.past_due`. Tests play the person on Stripe's
 * hosted form with `complete`, `submitForVerification` and `restrict`; each answers the account, to
 * be posted as an `account.updated` event (the server's `event`, signed with `signWebhook`).
 * An account is paid out automatically, daily, as Stripe does by default
 * (`settings.payouts.schedule.interval`: daily, weekly, monthly or manual; see stripe-balances.ts).
 */

export interface FakeConnectAccount {
  id: string;
  object: 'account';
  type: 'express' | 'standard' | 'custom';
  email: string | null;
  metadata: Record<string, string>;
  capabilities: { transfers?: 'inactive' | 'pending' | 'active' };
  settings: { payouts: { schedule: FakePayoutSchedule } };
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  requirements: {
    currently_due: string[];
    eventually_due: string[];
    past_due: string[];
    pending_verification: string[];
    disabled_reason: string | null;
    errors: { code: string; reason: string; requirement: string }[];
  };
  created: number;
  livemode: false;
}

export interface FakeConnectAccounts {
  route: FakeStripeRoute;
  accounts: Map<string, FakeConnectAccount>;
  /** Every account link handed out: the account and where it returns. */
  accountLinks: { account: string; url: string; returnUrl: string; refreshUrl: string }[];
  /** The person finished Stripe's form and Stripe verified it: payouts enabled, nothing due. */
  complete(id: string): FakeConnectAccount;
  /** The form is submitted and Stripe is still verifying it. */
  submitForVerification(id: string): FakeConnectAccount;
  /** Stripe disabled the account: a requirement went past due (or another reason). */
  restrict(id: string, reason?: string): FakeConnectAccount;
  /** Changes how the account is paid out (interval manual keeps its balance); answers the account. */
  setPayoutSchedule(id: string, schedule: Partial<FakePayoutSchedule>): FakeConnectAccount;
  /** The payout schedule of every account (what the balances pay out automatically). */
  schedules(): Map<string, FakePayoutSchedule>;
}

/** What Stripe's hosted onboarding asks an individual on an Express account. */
const ONBOARDING_FIELDS = [
  'business_type',
  'external_account',
  'individual.dob.day',
  'individual.first_name',
  'individual.last_name',
  'tos_acceptance.date',
  'tos_acceptance.ip',
];

const missingAccount = (id: string, param?: string) =>
  new StripeHttpError(404, 'invalid_request_error', `No such account: '${id}'`, 'account_invalid', param);

const missingParam = (param: string) =>
  new StripeHttpError(
    400,
    'invalid_request_error',
    `Missing required param: ${param}.`,
    'parameter_missing',
    param,
  );

const INTERVALS = new Set(['daily', 'weekly', 'monthly', 'manual']);

/** Reads settings[payouts][schedule][…] of a create or update request onto a schedule. */
function scheduleFrom(form: ParsedForm, schedule: FakePayoutSchedule): FakePayoutSchedule {
  const interval = form.get('settings', 'payouts', 'schedule', 'interval');
  if (interval !== undefined && !INTERVALS.has(interval))
    throw new StripeHttpError(
      400,
      'invalid_request_error',
      `Invalid settings[payouts][schedule][interval]: must be one of daily, manual, monthly, or weekly`,
      'parameter_invalid_string',
      'settings[payouts][schedule][interval]',
    );
  const delay = form.get('settings', 'payouts', 'schedule', 'delay_days');
  const weekly = form.get('settings', 'payouts', 'schedule', 'weekly_anchor');
  const monthly = form.get('settings', 'payouts', 'schedule', 'monthly_anchor');
  return {
    ...schedule,
    ...(interval ? { interval: interval as FakePayoutSchedule['interval'] } : {}),
    ...(delay && delay !== 'minimum' ? { delay_days: Number(delay) } : {}),
    ...(weekly ? { weekly_anchor: weekly } : {}),
    ...(monthly ? { monthly_anchor: Number(monthly) } : {}),
  };
}

export function createFakeConnectAccounts(): FakeConnectAccounts {
  const accounts = new Map<string, FakeConnectAccount>();
  const accountLinks: FakeConnectAccounts['accountLinks'] = [];

  const accountOf = (id: string, param?: string): FakeConnectAccount => {
    const account = accounts.get(id);
    if (!account) throw missingAccount(id, param);
    return account;
  };

  const route: FakeStripeRoute = (req, ctx) => {
    const { method, path, form } = req;
    const seconds = Math.floor(ctx.now() / 1000);
    if (method === 'POST' && path === '/v1/accounts') {
      const type = form.flat.get('type') ?? 'standard';
      if (type !== 'express' && type !== 'standard' && type !== 'custom')
        throw new StripeHttpError(
          400,
          'invalid_request_error',
          `Invalid type: must be one of custom, express, or standard`,
          'parameter_invalid_string',
          'type',
        );
      const account: FakeConnectAccount = {
        id: ctx.id('acct'),
        object: 'account',
        type,
        email: form.flat.get('email') ?? null,
        metadata: form.nested.get('metadata') ?? {},
        capabilities:
          form.get('capabilities', 'transfers', 'requested') === 'true' ? { transfers: 'inactive' } : {},
        settings: { payouts: { schedule: scheduleFrom(form, { delay_days: 2, interval: 'daily' }) } },
        details_submitted: false,
        charges_enabled: false,
        payouts_enabled: false,
        requirements: {
          currently_due: [...ONBOARDING_FIELDS],
          eventually_due: [...ONBOARDING_FIELDS],
          past_due: [...ONBOARDING_FIELDS],
          pending_verification: [],
          disabled_reason: 'requirements.past_due',
          errors: [],
        },
        created: seconds,
        livemode: false,
      };
      accounts.set(account.id, account);
      return { body: account };
    }
    const accountMatch = /^\/v1\/accounts\/([^/]+)(\/login_links)?$/.exec(path);
    if (accountMatch?.[1]) {
      const account = accountOf(decodeURIComponent(accountMatch[1]), 'account');
      if (method === 'GET' && !accountMatch[2]) return { body: account };
      if (method === 'POST' && !accountMatch[2]) {
        const schedule = scheduleFrom(form, account.settings.payouts.schedule);
        account.settings.payouts.schedule = schedule;
        account.metadata = { ...account.metadata, ...(form.nested.get('metadata') ?? {}) };
        return { body: account };
      }
      if (method === 'POST' && accountMatch[2]) {
        if (account.type !== 'express')
          throw new StripeHttpError(
            400,
            'invalid_request_error',
            'You may only create login links for Express accounts.',
          );
        if (!account.details_submitted)
          throw new StripeHttpError(
            400,
            'invalid_request_error',
            'Cannot create a login link for an account that has not completed onboarding.',
          );
        return {
          body: {
            object: 'login_link',
            created: seconds,
            url: `https://connect.stripe.com/express/acct_login/${crypto.randomBytes(9).toString('hex')}`,
          },
        };
      }
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const accountId = form.flat.get('account');
      if (!accountId) throw missingParam('account');
      const type = form.flat.get('type');
      if (!type) throw missingParam('type');
      if (type !== 'account_onboarding' && type !== 'account_update')
        throw new StripeHttpError(
          400,
          'invalid_request_error',
          `Invalid type: ${type}`,
          'parameter_invalid_string',
          'type',
        );
      const returnUrl = form.flat.get('return_url');
      const refreshUrl = form.flat.get('refresh_url');
      if (!returnUrl) throw missingParam('return_url');
      if (!refreshUrl) throw missingParam('refresh_url');
      for (const [param, value] of [
        ['return_url', returnUrl],
        ['refresh_url', refreshUrl],
      ] as const) {
        if (!/^https?:\/\//.test(value))
          throw new StripeHttpError(400, 'invalid_request_error', 'Not a valid URL', 'url_invalid', param);
      }
      accountOf(accountId, 'account');
      const url = `https://connect.stripe.com/setup/e/${accountId}/${crypto.randomBytes(9).toString('hex')}`;
      accountLinks.push({ account: accountId, url, returnUrl, refreshUrl });
      return { body: { object: 'account_link', created: seconds, expires_at: seconds + 300, url } };
    }
    return undefined;
  };

  const settle = (id: string, change: (account: FakeConnectAccount) => void): FakeConnectAccount => {
    const account = accounts.get(id);
    if (!account) throw new Error(`no account ${id}`);
    change(account);
    return structuredClone(account);
  };

  return {
    route,
    accounts,
    accountLinks,
    setPayoutSchedule: (id, schedule) =>
      settle(id, (account) => {
        account.settings.payouts.schedule = { ...account.settings.payouts.schedule, ...schedule };
      }),
    schedules: () =>
      new Map([...accounts.values()].map((account) => [account.id, account.settings.payouts.schedule])),
    complete: (id) =>
      settle(id, (account) => {
        account.details_submitted = true;
        account.charges_enabled = true;
        account.payouts_enabled = true;
        if (account.capabilities.transfers) account.capabilities.transfers = 'active';
        account.requirements = {
          currently_due: [],
          eventually_due: [],
          past_due: [],
          pending_verification: [],
          disabled_reason: null,
          errors: [],
        };
      }),
    submitForVerification: (id) =>
      settle(id, (account) => {
        account.details_submitted = true;
        account.charges_enabled = false;
        account.payouts_enabled = false;
        if (account.capabilities.transfers) account.capabilities.transfers = 'pending';
        account.requirements = {
          currently_due: [],
          eventually_due: [],
          past_due: [],
          pending_verification: ['individual.verification.document'],
          disabled_reason: 'requirements.pending_verification',
          errors: [],
        };
      }),
    restrict: (id, reason = 'requirements.past_due') =>
      settle(id, (account) => {
        account.details_submitted = true;
        account.charges_enabled = false;
        account.payouts_enabled = false;
        if (account.capabilities.transfers) account.capabilities.transfers = 'inactive';
        const due = reason === 'requirements.past_due' ? ['individual.verification.document'] : [];
        account.requirements = {
          currently_due: due,
          eventually_due: due,
          past_due: due,
          pending_verification: [],
          disabled_reason: reason,
          errors: due.map((requirement) => ({
            code: 'verification_document_failed_other',
            reason: 'The document could not be verified.',
            requirement,
          })),
        };
      }),
  };
}
