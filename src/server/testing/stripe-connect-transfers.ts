import { StripeHttpError, type FakeStripeRoute } from './stripe-server';
import type { FakeConnectAccount } from './stripe-connect-accounts';

/**
 * Stripe's transfers and reversals for the local Stripe server (passed as one of its `routes`), as
 * Stripe documents them for separate charges and transfers:
 * - POST /v1/transfers (amount, currency, destination, source_transaction, transfer_group, metadata[…])
 * - GET  /v1/transfers (transfer_group, limit, starting_after), newest first, and GET /v1/transfers/:id
 * - POST /v1/transfers/:id/reversals (amount, metadata[…]) and GET /v1/transfers/:id/reversals
 * The destination must be a known connected account whose transfers capability is active; a
 * source_transaction must be a charge of this server and the transfers from it cannot exceed it;
 * reversals cannot exceed what is left of the transfer. The server's idempotency handling applies.
 */

export interface FakeTransferReversal {
  id: string;
  object: 'transfer_reversal';
  amount: number;
  currency: string;
  transfer: string;
  metadata: Record<string, string>;
  created: number;
}

export interface FakeTransfer {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
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
    charges: Map<string, { amount: number; currency: string }>;
  }): void;
}

const invalid = (message: string, param?: string, code = 'parameter_invalid') =>
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
  let charges = new Map<string, { amount: number; currency: string }>();

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
      if (!Number.isInteger(amount) || amount <= 0) throw invalid('Invalid positive integer', 'amount');
      const currency = form.flat.get('currency');
      if (!currency) throw invalid('Missing required param: currency.', 'currency', 'parameter_missing');
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
      if (source) {
        const charge = charges.get(source);
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
      }
      const id = ctx.id('tr');
      const transfer: FakeTransfer = {
        id,
        object: 'transfer',
        amount,
        amount_reversed: 0,
        currency,
        destination,
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
    if (!Number.isInteger(amount) || amount <= 0 || amount > left)
      throw invalid(
        `Transfer reversal amount (${amount}) is greater than the amount left to reverse (${left}).`,
        'amount',
      );
    const reversal: FakeTransferReversal = {
      id: ctx.id('trr'),
      object: 'transfer_reversal',
      amount,
      currency: transfer.currency,
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
    },
  };
}
