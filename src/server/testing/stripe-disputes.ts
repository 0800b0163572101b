import { PLATFORM, pageOf, type FakeBalanceTransaction, type FakeFeeDetail } from './stripe-balances';
import {
  StripeHttpError,
  type FakeStripeEvent,
  type FakeStripeRoute,
  type FakeStripeServer,
} from './stripe-server';

/**
 * Stripe's disputes (chargebacks) for the local Stripe server, as Stripe documents them
 * (docs/decisions/0018-money-against-stripe.md, The fake Stripe). With separate charges and transfers
 * a dispute is the platform's: when it opens, Stripe takes the disputed amount and the dispute fee
 * from the platform's balance in one `adjustment` balance transaction ("Chargeback withdrawal for
 * ch_…", fee_details "Dispute fee", reporting_category `dispute`) and sends
 * `charge.dispute.created` and `charge.dispute.funds_withdrawn`. Evidence (`POST /v1/disputes/:id`
 * with `submit=true`) puts it `under_review` (`charge.dispute.updated`). Won: the amount comes back
 * as an `adjustment` ("Chargeback reversal for ch_…", reporting_category `dispute_reversal`) with
 * `charge.dispute.closed` and `charge.dispute.funds_reinstated`; the dispute fee is NOT returned
 * (Stripe: "If the dispute is found in your favor, the disputed amount and the dispute countered fee
 * is returned to you"; the option `returnDisputeFeeOnWin` models the older rule that returned it).
 * Lost, or accepted (`POST /v1/disputes/:id/close`): `charge.dispute.closed`, nothing comes back.
 * While a dispute is open, or after it is lost, the charge cannot be refunded (`charge_disputed`).
 * - GET /v1/disputes (charge, payment_intent, created[…]; limit, starting_after), newest first
 * - GET /v1/disputes/:id; POST /v1/disputes/:id (evidence[…], metadata[…], submit); POST /v1/disputes/:id/close
 */

export type FakeDisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost';

export interface FakeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  /** The withdrawal and (when won) the reinstatement, as balance transactions. */
  balance_transactions: FakeBalanceTransaction[];
  charge: string;
  created: number;
  currency: string;
  evidence: Record<string, string | null>;
  evidence_details: { due_by: number; has_evidence: boolean; past_due: boolean; submission_count: number };
  is_charge_refundable: boolean;
  livemode: false;
  metadata: Record<string, string>;
  payment_intent: string | null;
  reason: string;
  status: FakeDisputeStatus;
}

export interface FakeDisputesOptions {
  /** The dispute fee taken with the disputed amount (US: $15.00). */
  disputeFee?: number;
  /** The fee taken when evidence is submitted, returned if the dispute is won (default 0: none). */
  counterFee?: number;
  /** Return the dispute fee when the dispute is won (Stripe's older rule; default false). */
  returnDisputeFeeOnWin?: boolean;
  /** Days the platform has to answer (evidence_details.due_by, end of that UTC day). */
  evidenceDueInDays?: number;
}

export interface FakeDisputes {
  route: FakeStripeRoute;
  disputes: Map<string, FakeDispute>;
  /**
   * The cardholder disputes a charge: the dispute (needs_response), the withdrawal of the amount and
   * the fee, and the events Stripe sends: charge.dispute.created, charge.dispute.funds_withdrawn.
   */
  open(
    chargeId: string,
    options?: { amount?: number; reason?: string; evidenceDueInDays?: number },
  ): { dispute: FakeDispute; events: FakeStripeEvent[] };
  /** Evidence submitted (what POST /v1/disputes/:id with submit=true does): under_review, charge.dispute.updated. */
  submitEvidence(
    id: string,
    evidence?: Record<string, string>,
  ): { dispute: FakeDispute; events: FakeStripeEvent[] };
  /** The issuer decides for the platform: won, the amount reinstated; charge.dispute.closed, charge.dispute.funds_reinstated. */
  win(id: string): { dispute: FakeDispute; events: FakeStripeEvent[] };
  /** The issuer decides for the cardholder: lost; charge.dispute.closed. */
  lose(id: string): { dispute: FakeDispute; events: FakeStripeEvent[] };
  /** Connects the disputes to the server: its charges, balances, events and refund checks. */
  bind(server: FakeStripeServer): void;
}

const EVIDENCE_FIELDS = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_communication',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'customer_signature',
  'duplicate_charge_documentation',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'receipt',
  'refund_policy',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'service_documentation',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_documentation',
  'shipping_tracking_number',
  'uncategorized_file',
  'uncategorized_text',
];

const DAY_SECONDS = 24 * 60 * 60;

const missingDispute = (id: string) =>
  new StripeHttpError(
    404,
    'invalid_request_error',
    `No such dispute: '${id}'`,
    'resource_missing',
    'dispute',
  );

export function createFakeDisputes(options: FakeDisputesOptions = {}): FakeDisputes {
  const disputeFee = options.disputeFee ?? 1500;
  const counterFee = options.counterFee ?? 0;
  const returnDisputeFeeOnWin = options.returnDisputeFeeOnWin ?? false;
  const defaultDueDays = options.evidenceDueInDays ?? 14;
  const disputes = new Map<string, FakeDispute>();
  let bound: FakeStripeServer | undefined;

  const server = () => {
    if (!bound) throw new Error('the disputes are not bound to a server (startStripeWorld binds them)');
    return bound;
  };
  const nowSeconds = () => Math.floor(server().now() / 1000);

  const disputeOf = (id: string) => {
    const dispute = disputes.get(id);
    if (!dispute) throw missingDispute(id);
    return dispute;
  };
  const fresh = (dispute: FakeDispute) => {
    // Balance transactions embedded in the dispute show their status as of now.
    dispute.balance_transactions = dispute.balance_transactions.map(
      (txn) => server().balances.find(txn.id)?.transaction ?? txn,
    );
    return dispute;
  };
  const answer = (dispute: FakeDispute, types: string[]) => {
    fresh(dispute);
    return {
      dispute: structuredClone(dispute),
      events: types.map((type) => server().event(type, dispute)),
    };
  };
  const feeDetail = (amount: number, currency: string, description: string): FakeFeeDetail => ({
    amount,
    application: null,
    currency,
    description,
    type: 'stripe_fee',
  });

  const open: FakeDisputes['open'] = (chargeId, openOptions = {}) => {
    const s = server();
    const charge = s.charges.get(chargeId);
    if (!charge) throw new Error(`no charge ${chargeId}`);
    const amount = openOptions.amount ?? charge.amount;
    const created = nowSeconds();
    const dueDays = openOptions.evidenceDueInDays ?? defaultDueDays;
    const dueBy = (Math.floor(created / DAY_SECONDS) + dueDays + 1) * DAY_SECONDS - 1;
    const id = s.id('du');
    const withdrawal = s.balances.record(PLATFORM, {
      amount: -amount,
      currency: charge.currency,
      type: 'adjustment',
      reporting_category: 'dispute',
      source: id,
      description: `Chargeback withdrawal for ${charge.id}`,
      fee_details: disputeFee > 0 ? [feeDetail(disputeFee, charge.currency, 'Dispute fee')] : [],
    });
    const dispute: FakeDispute = {
      id,
      object: 'dispute',
      amount,
      balance_transactions: [withdrawal],
      charge: charge.id,
      created,
      currency: charge.currency,
      evidence: Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, null])),
      evidence_details: { due_by: dueBy, has_evidence: false, past_due: false, submission_count: 0 },
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: charge.payment_intent,
      reason: openOptions.reason ?? 'general',
      status: 'needs_response',
    };
    disputes.set(id, dispute);
    charge.disputed = true;
    return answer(dispute, ['charge.dispute.created', 'charge.dispute.funds_withdrawn']);
  };

  const closedAlready = (dispute: FakeDispute) =>
    new StripeHttpError(
      400,
      'invalid_request_error',
      `This dispute is already closed (status ${dispute.status}) and can no longer be updated.`,
    );

  const update = (dispute: FakeDispute, evidence: Record<string, string>, submit: boolean) => {
    if (dispute.status !== 'needs_response' && dispute.status !== 'under_review')
      throw closedAlready(dispute);
    if (dispute.status === 'under_review' && (submit || Object.keys(evidence).length > 0))
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        'This dispute has already been submitted and can no longer be updated.',
      );
    for (const [field, value] of Object.entries(evidence)) {
      if (!EVIDENCE_FIELDS.includes(field))
        throw new StripeHttpError(
          400,
          'invalid_request_error',
          `Received unknown parameter: evidence[${field}]`,
          'parameter_unknown',
          `evidence[${field}]`,
        );
      dispute.evidence[field] = value;
    }
    if (Object.keys(evidence).length > 0) dispute.evidence_details.has_evidence = true;
    if (submit) {
      dispute.status = 'under_review';
      dispute.evidence_details.submission_count += 1;
      if (counterFee > 0)
        dispute.balance_transactions.push(
          server().balances.record(PLATFORM, {
            amount: 0,
            currency: dispute.currency,
            type: 'adjustment',
            reporting_category: 'dispute',
            source: dispute.id,
            description: `Dispute countered fee for ${dispute.charge}`,
            fee_details: [feeDetail(counterFee, dispute.currency, 'Dispute countered fee')],
          }),
        );
    }
  };

  const close = (dispute: FakeDispute, status: 'won' | 'lost') => {
    if (dispute.status !== 'needs_response' && dispute.status !== 'under_review')
      throw closedAlready(dispute);
    const countered = dispute.evidence_details.submission_count > 0 && counterFee > 0;
    dispute.status = status;
    if (status === 'lost') return answer(dispute, ['charge.dispute.closed']);
    const returnedFee = (returnDisputeFeeOnWin ? disputeFee : 0) + (countered ? counterFee : 0);
    dispute.balance_transactions.push(
      server().balances.record(PLATFORM, {
        amount: dispute.amount,
        currency: dispute.currency,
        type: 'adjustment',
        reporting_category: 'dispute_reversal',
        source: dispute.id,
        description: `Chargeback reversal for ${dispute.charge}`,
        fee_details: returnedFee > 0 ? [feeDetail(-returnedFee, dispute.currency, 'Dispute fee refund')] : [],
      }),
    );
    return answer(dispute, ['charge.dispute.closed', 'charge.dispute.funds_reinstated']);
  };

  const route: FakeStripeRoute = (req) => {
    const { method, path, form, query, queryForm } = req;
    if (path === '/v1/disputes' && method === 'GET') {
      const charge = query.get('charge');
      const intent = query.get('payment_intent');
      const gte = queryForm.get('created', 'gte');
      const lt = queryForm.get('created', 'lt');
      const found = [...disputes.values()]
        .filter(
          (d) =>
            (!charge || d.charge === charge) &&
            (!intent || d.payment_intent === intent) &&
            (gte === undefined || d.created >= Number(gte)) &&
            (lt === undefined || d.created < Number(lt)),
        )
        .reverse()
        .map(fresh);
      return { body: pageOf(found, query, '/v1/disputes') };
    }
    const match = /^\/v1\/disputes\/([^/]+)(\/close)?$/.exec(path);
    if (!match?.[1]) return undefined;
    const dispute = disputeOf(decodeURIComponent(match[1]));
    if (method === 'GET' && !match[2]) return { body: fresh(dispute) };
    if (method !== 'POST') return undefined;
    if (match[2]) {
      // Accepting the dispute: Stripe closes it as lost.
      close(dispute, 'lost');
      return { body: fresh(dispute) };
    }
    const evidence = form.nested.get('evidence') ?? {};
    update(dispute, evidence, form.flat.get('submit') === 'true');
    dispute.metadata = { ...dispute.metadata, ...(form.nested.get('metadata') ?? {}) };
    return { body: fresh(dispute) };
  };

  return {
    route,
    disputes,
    open,
    submitEvidence(id, evidence = {}) {
      const dispute = disputes.get(id);
      if (!dispute) throw new Error(`no dispute ${id}`);
      update(dispute, evidence, true);
      return answer(dispute, ['charge.dispute.updated']);
    },
    win(id) {
      const dispute = disputes.get(id);
      if (!dispute) throw new Error(`no dispute ${id}`);
      return close(dispute, 'won');
    },
    lose(id) {
      const dispute = disputes.get(id);
      if (!dispute) throw new Error(`no dispute ${id}`);
      return close(dispute, 'lost');
    },
    bind(target) {
      bound = target;
      target.addResolver((id) => (id.startsWith('du_') ? disputes.get(id) : undefined));
      target.addRefundGuard((charge) => {
        const open = [...disputes.values()].find((d) => d.charge === charge.id && d.status !== 'won');
        if (open && !open.is_charge_refundable)
          throw new StripeHttpError(
            400,
            'invalid_request_error',
            `Charge ${charge.id} has been charged back; cannot issue a refund.`,
            'charge_disputed',
          );
      });
    },
  };
}
