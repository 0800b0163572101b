import { StripeHttpError, type FakeStripeRoute } from './stripe-server';
import { invalidParameter } from './stripe-protocol';
import type { FakeConnectAccount } from './stripe-connect-accounts';
import { PLATFORM, type FakeBalances } from './stripe-balances';

/**
 * Stripe's transfers and reversals for the local Stripe server (passed as one of its `routes`), as
 * Stripe documents them for separate charges and transfers:
 * - POST /v1/transfers (amount, currency, destination, source_transaction, transfer_group, metadata[…])
 * - GET  /v1/transfers (transfer_group, limit, starting_after), newest first, and GET /v1/transfers/:id
 * - POST /v1/transfers/:id/reversals (amount, metadata[…]) and GET /v1/transfers/:id/reversals
 * The destination must be a known connected account whose transfers capability is active; a
 * source_transaction must be a charge of this server and the transfers from it cannot exceed it;
 * reversals cannot exceed what is left of the transfer. The server's idempotency handling applies:
 * a refusal made by the endpoint (a destination that cannot receive transfers, insufficient funds,
 * `balance_insufficient` for a reversal) is saved under the request's key and answered again to its
 * retries; a malformed amount or a missing currency (validation) is not.
 *
 * Bound to the server's balances (as `startStripeWorld` does), money moves as at Stripe
 * (docs/decisions/0018-money-against-stripe.md, The local Stripe server): a transfer is a `transfer` balance
 * transaction on the platform and a `payment` (py_…) on the account, pending until the source
 * charge's funds are available; a transfer without source_transaction needs the platform's available
 * balance (`balance_insufficient`). A reversal is a `transfer_refund` on the platform and a
 * `payment_refund` on the account, and is refused with `balance_insufficient` when the account's
 * balance cannot cover it (paid out to the bank): Stripe reverses a transfer_group transfer "only if
 * the destination account has enough balance to cover the reversal".
 *
 * A reversal is immediate, as at Stripe: "Transfer reversals add to the platform's balance and
 * subtract from the destination account's balance" (API reference, Transfer Reversals), and the
 * TransferReversal object has no status to wait in; it is made, or refused.
 */

/** Stripe's test-mode answer to a transfer the platform's available balance cannot cover. */
export const PLATFORM_INSUFFICIENT_FUNDS_MESSAGE =
  'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance';

/**
 * The answer to a reversal the connected account's balance cannot cover. Stripe documents the code
 * (`balance_insufficient`: the account does not have a sufficient balance available) but not this
 * request's exact message; tests should match the code.
 */
export const REVERSAL_INSUFFICIENT_FUNDS_MESSAGE =
  "Insufficient funds in the connected account to reverse this transfer: the account's balance cannot cover the reversal.";

export interface FakeTransferReversal {
  id: string;
  object: 'transfer_reversal';
  amount: number;
  currency: string;
  transfer: string;
  /** The `transfer_refund` balance transaction on the platform (null when no balances are bound). */
  balance_transaction: string | null;
  /** The refund of the account's payment (pyr_…), its `payment_refund` on the account. */
  destination_payment_refund: string | null;
  source_refund: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface FakeTransfer {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  /** The `transfer` balance transaction on the platform (null when no balances are bound). */
  balance_transaction: string | null;
  currency: string;
  destination: string;
  /** The payment (py_…) the transfer made on the connected account. */
  destination_payment: string | null;
  source_transaction: string | null;
  transfer_group: string | null;
  metadata: Record<string, string>;
  reversed: boolean;
  reversals: { object: 'list'; data: FakeTransferReversal[]; has_more: false; url: string };
  created: number;
}

export interface FakeConnectTransfers {
  route: FakeStripeRoute;
  transfers: FakeTransfer[];
  /** Tells the route which connected accounts and charges exist (the other parts of the server). */
  bind(sources: {
    accounts: Map<string, FakeConnectAccount>;
    charges: Map<string, ChargeLike>;
    /** With the server's balances, transfers and reversals move balances and can be refused for funds. */
    balances?: FakeBalances;
  }): void;
  /** A transfer or a reversal by id (for `expand[]`). */
  resolve(id: string): FakeTransfer | FakeTransferReversal | undefined;
}

type ChargeLike = { amount: number; currency: string; balance_transaction?: string | null };

/** A refusal by the endpoint (saved under the request's idempotency key). */
const invalid = (message: string, param: string | undefined, code: string) =>
  new StripeHttpError(400, 'invalid_request_error', message, code, param);

function page<T extends { id: string }>(items: T[], query: URLSearchParams, url: string) {
  const limit = Math.min(Number(query.get('limit') ?? 10) || 10, 100);
  const after = query.get('starting_after');
  const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
  const data = items.slice(start, start + limit);
  return { object: 'list', url, has_more: start + limit < items.length, data };
}

export function createFakeConnectTransfers(): FakeConnectTransfers {
  const transfers: FakeTransfer[] = [];
  let accounts = new Map<string, FakeConnectAccount>();
  let charges = new Map<string, ChargeLike>();
  let balances: FakeBalances | undefined;

  const transferOf = (id: string): FakeTransfer => {
    const transfer = transfers.find((t) => t.id === id);
    if (!transfer)
      throw new StripeHttpError(
        404,
        'invalid_request_error',
        `No such transfer: '${id}'`,
        'resource_missing',
        'id',
      );
    return transfer;
  };

  const route: FakeStripeRoute = (req, ctx) => {
    const { method, path, form, query } = req;
    const created = Math.floor(ctx.now() / 1000);
    if (path === '/v1/transfers' && method === 'POST') {
      const amount = Number(form.flat.get('amount'));
      if (!Number.isInteger(amount) || amount <= 0)
        throw invalidParameter('Invalid positive integer', 'amount');
      const currency = form.flat.get('currency');
      if (!currency)
        throw invalidParameter('Missing required param: currency.', 'currency', 'parameter_missing');
      if (!form.flat.get('destination'))
        throw invalidParameter('Missing required param: destination.', 'destination', 'parameter_missing');
      const destination = form.flat.get('destination') ?? '';
      const account = accounts.get(destination);
      if (!account) throw invalid(`No such destination: '${destination}'`, 'destination', 'resource_missing');
      if (account.capabilities.transfers !== 'active')
        throw invalid(
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
          'destination',
          'insufficient_capabilities_for_transfer',
        );
      const source = form.flat.get('source_transaction') ?? null;
      // Funds of a transfer from a charge follow the charge's: pending until it is available.
      let availableOn = created;
      if (source) {
        const charge = charges.get(source);
        const chargeTxn = charge?.balance_transaction
          ? balances?.find(charge.balance_transaction)
          : undefined;
        if (chargeTxn) availableOn = chargeTxn.transaction.available_on;
        if (!charge) throw invalid(`No such charge: '${source}'`, 'source_transaction', 'resource_missing');
        const taken = transfers
          .filter((t) => t.source_transaction === source)
          .reduce((sum, t) => sum + t.amount, 0);
        if (taken + amount > charge.amount)
          throw invalid(
            'Insufficient funds in the source transaction for this transfer.',
            'amount',
            'insufficient_funds',
          );
      } else if (balances && balances.balanceOf(PLATFORM, currency).available < amount)
        throw invalid(PLATFORM_INSUFFICIENT_FUNDS_MESSAGE, undefined, 'balance_insufficient');
      const id = ctx.id('tr');
      const payment = balances ? ctx.id('py') : null;
      const platformTxn = balances?.record(PLATFORM, {
        amount: -amount,
        currency,
        type: 'transfer',
        reporting_category: 'transfer',
        source: id,
        available_on: availableOn,
      });
      balances?.record(destination, {
        amount,
        currency,
        type: 'payment',
        reporting_category: 'charge',
        source: payment,
        available_on: availableOn,
      });
      const transfer: FakeTransfer = {
        id,
        object: 'transfer',
        amount,
        amount_reversed: 0,
        balance_transaction: platformTxn?.id ?? null,
        currency,
        destination,
        destination_payment: payment,
        source_transaction: source,
        transfer_group: form.flat.get('transfer_group') ?? null,
        metadata: form.nested.get('metadata') ?? {},
        reversed: false,
        reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
        created,
      };
      transfers.push(transfer);
      return { body: transfer };
    }
    if (path === '/v1/transfers' && method === 'GET') {
      const group = query.get('transfer_group');
      const found = transfers
        .filter((t) => !group || t.transfer_group === group)
        .slice()
        .reverse();
      return { body: page(found, query, '/v1/transfers') };
    }
    const match = /^\/v1\/transfers\/([^/]+)(\/reversals)?$/.exec(path);
    if (!match?.[1]) return undefined;
    const transfer = transferOf(decodeURIComponent(match[1]));
    if (!match[2]) return method === 'GET' ? { body: transfer } : undefined;
    if (method === 'GET')
      return { body: page(transfer.reversals.data.slice().reverse(), query, transfer.reversals.url) };
    if (method !== 'POST') return undefined;
    const left = transfer.amount - transfer.amount_reversed;
    const amount = form.flat.has('amount') ? Number(form.flat.get('amount')) : left;
    if (form.flat.has('amount') && (!Number.isInteger(amount) || amount <= 0))
      throw invalidParameter('Invalid positive integer', 'amount');
    if (amount <= 0 || amount > left)
      throw invalid(
        `Transfer reversal amount (${amount}) is greater than the amount left to reverse (${left}).`,
        'amount',
        'amount_too_large',
      );
    const id = ctx.id('trr');
    let platformTxnId: string | null = null;
    let paymentRefund: string | null = null;
    if (balances) {
      // The reversal takes back from the bucket the transfer's funds are in: still pending, or
      // available (and then perhaps already paid out to the bank).
      const accountTxns = balances.transactionsOf(transfer.destination);
      const payment = accountTxns.find(
        (t) => t.type === 'payment' && t.source === transfer.destination_payment,
      );
      const pending = payment?.status === 'pending';
      const balance = balances.balanceOf(transfer.destination, transfer.currency);
      if ((pending ? balance.pending : balance.available) < amount)
        throw invalid(REVERSAL_INSUFFICIENT_FUNDS_MESSAGE, 'amount', 'balance_insufficient');
      paymentRefund = ctx.id('pyr');
      balances.record(transfer.destination, {
        amount: -amount,
        currency: transfer.currency,
        type: 'payment_refund',
        reporting_category: 'refund',
        source: paymentRefund,
        available_on: pending && payment ? payment.available_on : created,
      });
      const platformTransfer = transfer.balance_transaction
        ? balances.find(transfer.balance_transaction)?.transaction
        : undefined;
      platformTxnId = balances.record(PLATFORM, {
        amount,
        currency: transfer.currency,
        type: 'transfer_refund',
        reporting_category: 'transfer_reversal',
        source: id,
        available_on: platformTransfer?.status === 'pending' ? platformTransfer.available_on : created,
      }).id;
    }
    const reversal: FakeTransferReversal = {
      id,
      object: 'transfer_reversal',
      amount,
      balance_transaction: platformTxnId,
      currency: transfer.currency,
      destination_payment_refund: paymentRefund,
      source_refund: null,
      transfer: transfer.id,
      metadata: form.nested.get('metadata') ?? {},
      created,
    };
    transfer.reversals.data.push(reversal);
    transfer.amount_reversed += amount;
    transfer.reversed = transfer.amount_reversed === transfer.amount;
    return { body: reversal };
  };

  return {
    route,
    transfers,
    bind(sources) {
      accounts = sources.accounts;
      charges = sources.charges;
      balances = sources.balances;
    },
    resolve: (id) =>
      transfers.find((t) => t.id === id) ??
      transfers.flatMap((t) => t.reversals.data).find((r) => r.id === id),
  };
}
