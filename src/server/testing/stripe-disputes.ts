import { PLATFORM, pageOf, type FakeBalanceTransaction, type FakeFeeDetail } from './stripe-balances';
import {
  StripeHttpError,
  type FakeCharge,
  type FakeStripeEvent,
  type FakeStripeRoute,
  type FakeStripeServer,
} from './stripe-server';

/**
 * Stripe's disputes (chargebacks and inquiries) for the local Stripe server, as Stripe documents them
 * (docs/decisions/0018-money-against-stripe.md, The local Stripe server). With separate charges and transfers
 * a dispute is the platform's.
 * - A chargeback (`open`): Stripe takes the disputed amount and the dispute fee from the platform's
 *   balance in one `adjustment` balance transaction ("Chargeback withdrawal for ch_…", fee_details
 *   "Dispute fee", reporting_category `dispute`) and sends `charge.dispute.created` and
 *   `charge.dispute.funds_withdrawn`. Evidence (`POST /v1/disputes/:id` with `submit=true`) puts it
 *   `under_review` (`charge.dispute.updated`). Won: the amount comes back as an `adjustment`
 *   ("Chargeback reversal for ch_…", reporting_category `dispute_reversal`) with
 *   `charge.dispute.closed` and `charge.dispute.funds_reinstated`; the dispute fee is NOT returned
 *   (Stripe: "If the dispute is found in your favor, the disputed amount and the dispute countered
 *   fee is returned to you"; the option `returnDisputeFeeOnWin` models the older rule that returned
 *   it). Lost, or accepted (`POST /v1/disputes/:id/close`): `charge.dispute.closed`, nothing comes back.
 * - An inquiry (`open` with `inquiry: true`; Disputes, "Inquiries and retrievals": "Unlike a formal
 *   dispute, no funds have been withdrawn and the payment it relates to can still be refunded"):
 *   `warning_needs_response`, nothing withdrawn, `is_charge_refundable` true; evidence puts it
 *   `warning_under_review`; the issuer closes it (`closeInquiry`: `warning_closed`) or escalates it
 *   to a chargeback (`escalate`: `needs_response`, the amount and the fee withdrawn then,
 *   `charge.dispute.updated` and `charge.dispute.funds_withdrawn`). A refund of the whole charge
 *   during an inquiry resolves it ("refund the payment in full. This marks the inquiry or retrieval as
 *   resolved and no dispute fee is incurred"): `warning_closed`, `charge.dispute.closed`.
 * - A prevented dispute (`prevent`; Disputes, "Dispute prevention": resolution rules "automatically
 *   resolve (refund) specific disputes. Resolved disputes … don't incur a dispute received fee"):
 *   status `prevented`, case type `resolution`, nothing withdrawn and no fee, and the cardholder
 *   refunded by a Stripe-made refund of the disputed amount.
 * Refunds of a disputed charge follow the dispute's `is_charge_refundable` (API reference, The Dispute
 * object: "If true, it's still possible to refund the disputed payment"): true for an inquiry until
 * the charge is refunded in full, false for a chargeback (funds withdrawn) and after it is lost; a
 * refund it forbids is refused with `charge_disputed`. A card charge refunded in full cannot be
 * disputed (Refunds: "Disputes and chargebacks aren't possible on credit card charges that are fully
 * refunded"): `open` throws; a charge with a refund still pending can, and the refund then fails
 * (`charge_for_pending_refund_disputed`, API reference, The Refund object, `failure_reason`).
 * - GET /v1/disputes (charge, payment_intent, created[…]; limit, starting_after), newest first
 * - GET /v1/disputes/:id; POST /v1/disputes/:id (evidence[…], metadata[…], submit); POST
 *   /v1/disputes/:id/close What an API request causes Stripe to send is queued on the server
 *   (`server.takeEvents()`).
 */

export type FakeDisputeStatus =
  | 'warning_needs_response'
  | 'warning_under_review'
  | 'warning_closed'
  | 'needs_response'
  | 'under_review'
  | 'won'
  | 'lost'
  | 'prevented';

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
  /** The card network's case: a `chargeback`, an `inquiry`, or a prevented dispute's `resolution`. */
  payment_method_details: {
    type: 'card';
    card: {
      brand: 'visa';
      case_type: 'chargeback' | 'inquiry' | 'resolution';
      network_reason_code: string | null;
    };
  };
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

type Answer = { dispute: FakeDispute; events: FakeStripeEvent[] };

export interface FakeDisputes {
  route: FakeStripeRoute;
  disputes: Map<string, FakeDispute>;
  /**
   * The cardholder disputes a charge: the dispute (needs_response), the withdrawal of the amount and
   * the fee, and the events Stripe sends: charge.dispute.created, charge.dispute.funds_withdrawn
   * (then the `refund.failed` and `charge.refund.updated` of each refund still pending, which fails).
   * With `inquiry: true` an inquiry: warning_needs_response, nothing withdrawn, charge.dispute.created.
   * `amount` defaults to what is left of the charge after its refunds (a cardholder may dispute
   * more). Throws for a charge refunded in full.
   */
  open(
    chargeId: string,
    options?: { amount?: number; reason?: string; evidenceDueInDays?: number; inquiry?: boolean },
  ): Answer;
  /**
   * Evidence submitted (what POST /v1/disputes/:id with submit=true does): under_review (an inquiry:
   * warning_under_review), charge.dispute.updated.
   */
  submitEvidence(id: string, evidence?: Record<string, string>): Answer;
  /** The issuer decides for the platform: won, the amount reinstated; charge.dispute.closed, charge.dispute.funds_reinstated. */
  win(id: string): Answer;
  /** The issuer decides for the cardholder: lost; charge.dispute.closed. */
  lose(id: string): Answer;
  /** The issuer closes an inquiry without a chargeback: warning_closed; charge.dispute.closed. */
  closeInquiry(id: string): Answer;
  /**
   * An inquiry becomes a chargeback: needs_response, the amount (by default the disputed amount, no
   * more than what is left of the charge after its refunds) and the fee withdrawn;
   * charge.dispute.updated, charge.dispute.funds_withdrawn.
   */
  escalate(id: string, options?: { amount?: number; evidenceDueInDays?: number }): Answer;
  /**
   * Stripe's dispute prevention resolves a dispute before it becomes a chargeback: `prevented`, case
   * type `resolution`, nothing withdrawn and no dispute fee, the cardholder refunded by Stripe.
   * Given a charge id: a new dispute, resolved as it comes in (`amount` defaults to what is left of
   * the charge); events charge.dispute.created, charge.dispute.closed, then the refund's
   * refund.created, charge.refunded. Given the id of a dispute `open` made that nothing has answered
   * yet (needs_response or warning_needs_response, no evidence, its events never delivered): that
   * dispute resolved as it came in instead — its withdrawal is taken out of the balance as if never
   * made — with charge.dispute.closed and the refund's events.
   */
  prevent(chargeOrDisputeId: string, options?: { amount?: number; reason?: string }): Answer;
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
  const dueByFrom = (created: number, dueDays: number) =>
    (Math.floor(created / DAY_SECONDS) + dueDays + 1) * DAY_SECONDS - 1;

  const disputeOf = (id: string) => {
    const dispute = disputes.get(id);
    if (!dispute) throw missingDispute(id);
    return dispute;
  };
  const known = (id: string) => {
    const dispute = disputes.get(id);
    if (!dispute) throw new Error(`no dispute ${id}`);
    return dispute;
  };
  const fresh = (dispute: FakeDispute) => {
    // Balance transactions embedded in the dispute show their status as of now.
    dispute.balance_transactions = dispute.balance_transactions.map(
      (txn) => server().balances.find(txn.id)?.transaction ?? txn,
    );
    return dispute;
  };
  const eventsOf = (dispute: FakeDispute, types: string[]) => {
    fresh(dispute);
    return types.map((type) => server().event(type, dispute));
  };
  const answer = (dispute: FakeDispute, types: string[], more: FakeStripeEvent[] = []): Answer => ({
    events: [...eventsOf(dispute, types), ...more],
    dispute: structuredClone(dispute),
  });
  const feeDetail = (amount: number, currency: string, description: string): FakeFeeDetail => ({
    amount,
    application: null,
    currency,
    description,
    type: 'stripe_fee',
  });
  const chargeOf = (chargeId: string) => {
    const charge = server().charges.get(chargeId);
    if (!charge) throw new Error(`no charge ${chargeId}`);
    return charge;
  };
  /** What the cardholder got back by refunds that succeeded. */
  const refundedOf = (chargeId: string) =>
    server()
      .refunds.filter((r) => r.charge === chargeId && r.status === 'succeeded')
      .reduce((sum, r) => sum + r.amount, 0);
  /** A refund still pending when the charge is disputed fails (Stripe: the dispute is created instead). */
  const failPendingRefunds = (chargeId: string) =>
    server()
      .refunds.filter((r) => r.charge === chargeId && r.status === 'pending')
      .flatMap((r) => server().failRefund(r.id, 'charge_for_pending_refund_disputed'));
  const withdraw = (dispute: FakeDispute, charge: FakeCharge) =>
    server().balances.record(PLATFORM, {
      amount: -dispute.amount,
      currency: charge.currency,
      type: 'adjustment',
      reporting_category: 'dispute',
      source: dispute.id,
      description: `Chargeback withdrawal for ${charge.id}`,
      fee_details: disputeFee > 0 ? [feeDetail(disputeFee, charge.currency, 'Dispute fee')] : [],
    });

  const open: FakeDisputes['open'] = (chargeId, openOptions = {}) => {
    const s = server();
    const charge = chargeOf(chargeId);
    if (refundedOf(charge.id) >= charge.amount)
      throw new Error(
        `charge ${charge.id} is refunded in full: a card charge refunded in full cannot be disputed`,
      );
    const failed = failPendingRefunds(charge.id);
    const amount = openOptions.amount ?? charge.amount - refundedOf(charge.id);
    const created = nowSeconds();
    const inquiry = openOptions.inquiry ?? false;
    const dispute: FakeDispute = {
      id: s.id('du'),
      object: 'dispute',
      amount,
      balance_transactions: [],
      charge: charge.id,
      created,
      currency: charge.currency,
      evidence: Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, null])),
      evidence_details: {
        due_by: dueByFrom(created, openOptions.evidenceDueInDays ?? defaultDueDays),
        has_evidence: false,
        past_due: false,
        submission_count: 0,
      },
      is_charge_refundable: inquiry,
      livemode: false,
      metadata: {},
      payment_intent: charge.payment_intent,
      payment_method_details: {
        type: 'card',
        card: { brand: 'visa', case_type: inquiry ? 'inquiry' : 'chargeback', network_reason_code: null },
      },
      reason: openOptions.reason ?? 'general',
      status: inquiry ? 'warning_needs_response' : 'needs_response',
    };
    if (!inquiry) dispute.balance_transactions.push(withdraw(dispute, charge));
    disputes.set(dispute.id, dispute);
    charge.disputed = true;
    return answer(
      dispute,
      inquiry ? ['charge.dispute.created'] : ['charge.dispute.created', 'charge.dispute.funds_withdrawn'],
      failed,
    );
  };

  const closedAlready = (dispute: FakeDispute) =>
    new StripeHttpError(
      400,
      'invalid_request_error',
      `This dispute is already closed (status ${dispute.status}) and can no longer be updated.`,
    );
  const isInquiry = (dispute: FakeDispute) =>
    dispute.status === 'warning_needs_response' || dispute.status === 'warning_under_review';
  const isOpenChargeback = (dispute: FakeDispute) =>
    dispute.status === 'needs_response' || dispute.status === 'under_review';

  const update = (dispute: FakeDispute, evidence: Record<string, string>, submit: boolean) => {
    if (!isOpenChargeback(dispute) && !isInquiry(dispute)) throw closedAlready(dispute);
    if (
      (dispute.status === 'under_review' || dispute.status === 'warning_under_review') &&
      (submit || Object.keys(evidence).length > 0)
    )
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        'This dispute has already been submitted and can no longer be updated.',
      );
    for (const field of Object.keys(evidence))
      if (!EVIDENCE_FIELDS.includes(field))
        throw new StripeHttpError(
          400,
          'invalid_request_error',
          `Received unknown parameter: evidence[${field}]`,
          'parameter_unknown',
          `evidence[${field}]`,
        );
    for (const [field, value] of Object.entries(evidence)) dispute.evidence[field] = value;
    if (Object.keys(evidence).length > 0) dispute.evidence_details.has_evidence = true;
    if (!submit) return;
    dispute.evidence_details.submission_count += 1;
    if (isInquiry(dispute)) {
      dispute.status = 'warning_under_review';
      return;
    }
    dispute.status = 'under_review';
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
  };

  const close = (dispute: FakeDispute, status: 'won' | 'lost') => {
    if (!isOpenChargeback(dispute)) throw closedAlready(dispute);
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
    const events = answer(dispute, ['charge.dispute.closed', 'charge.dispute.funds_reinstated']);
    server().payWaitingRefunds();
    return events;
  };

  const closeInquiry = (dispute: FakeDispute) => {
    if (!isInquiry(dispute))
      throw new Error(`dispute ${dispute.id} is ${dispute.status}: only an inquiry closes as warning_closed`);
    dispute.status = 'warning_closed';
    return answer(dispute, ['charge.dispute.closed']);
  };

  const escalate: FakeDisputes['escalate'] = (id, escalation = {}) => {
    const dispute = known(id);
    if (!isInquiry(dispute)) throw new Error(`dispute ${id} is ${dispute.status}: only an inquiry escalates`);
    const charge = chargeOf(dispute.charge);
    const failed = failPendingRefunds(charge.id);
    const left = charge.amount - refundedOf(charge.id);
    if (left <= 0 && escalation.amount === undefined)
      throw new Error(`charge ${charge.id} is refunded in full: no funds are withdrawn for its inquiry`);
    dispute.amount = escalation.amount ?? Math.min(dispute.amount, left);
    dispute.status = 'needs_response';
    dispute.is_charge_refundable = false;
    dispute.payment_method_details.card.case_type = 'chargeback';
    dispute.evidence_details = {
      due_by: dueByFrom(nowSeconds(), escalation.evidenceDueInDays ?? defaultDueDays),
      has_evidence: dispute.evidence_details.has_evidence,
      past_due: false,
      submission_count: 0,
    };
    dispute.balance_transactions.push(withdraw(dispute, charge));
    return answer(dispute, ['charge.dispute.updated', 'charge.dispute.funds_withdrawn'], failed);
  };

  const prevent: FakeDisputes['prevent'] = (chargeOrDisputeId, prevention = {}) => {
    const s = server();
    const existing = disputes.get(chargeOrDisputeId);
    let dispute: FakeDispute;
    let types: string[];
    if (existing) {
      if (
        (existing.status !== 'needs_response' && existing.status !== 'warning_needs_response') ||
        existing.evidence_details.submission_count > 0
      )
        throw new Error(
          `dispute ${existing.id} is ${existing.status}: only a dispute nothing has answered yet can be prevented`,
        );
      // Resolved as it came in: the chargeback's withdrawal never happened.
      for (const txn of existing.balance_transactions) s.balances.remove(txn.id);
      existing.balance_transactions = [];
      if (prevention.amount !== undefined) existing.amount = prevention.amount;
      dispute = existing;
      types = ['charge.dispute.closed'];
    } else {
      const charge = chargeOf(chargeOrDisputeId);
      const left = charge.amount - refundedOf(charge.id);
      if (left <= 0)
        throw new Error(
          `charge ${charge.id} is refunded in full: a card charge refunded in full cannot be disputed`,
        );
      const created = nowSeconds();
      dispute = {
        id: s.id('du'),
        object: 'dispute',
        amount: prevention.amount ?? left,
        balance_transactions: [],
        charge: charge.id,
        created,
        currency: charge.currency,
        evidence: Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, null])),
        evidence_details: {
          due_by: dueByFrom(created, defaultDueDays),
          has_evidence: false,
          past_due: false,
          submission_count: 0,
        },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: charge.payment_intent,
        payment_method_details: {
          type: 'card',
          card: { brand: 'visa', case_type: 'resolution', network_reason_code: null },
        },
        reason: prevention.reason ?? 'general',
        status: 'prevented',
      };
      disputes.set(dispute.id, dispute);
      charge.disputed = true;
      types = ['charge.dispute.created', 'charge.dispute.closed'];
    }
    dispute.status = 'prevented';
    dispute.is_charge_refundable = false;
    dispute.payment_method_details.card.case_type = 'resolution';
    const charge = chargeOf(dispute.charge);
    // Stripe refunds the cardholder: the disputed amount, no more than what is left of the charge.
    const unrefunded =
      charge.amount -
      s.refunds
        .filter((r) => r.charge === charge.id && r.status !== 'failed' && r.status !== 'canceled')
        .reduce((sum, r) => sum + r.amount, 0);
    const refundAmount = Math.min(dispute.amount, unrefunded);
    const refunded = refundAmount > 0 ? s.refund(charge.payment_intent, { amount: refundAmount }).events : [];
    return answer(dispute, types, refunded);
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
      // Accepting the dispute: Stripe closes a chargeback as lost, an inquiry as warning_closed.
      const closed = isInquiry(dispute) ? closeInquiry(dispute) : close(dispute, 'lost');
      server().emit(...closed.events);
      return { body: fresh(dispute) };
    }
    const evidence = form.nested.get('evidence') ?? {};
    const submit = form.flat.get('submit') === 'true';
    update(dispute, evidence, submit);
    dispute.metadata = { ...dispute.metadata, ...(form.nested.get('metadata') ?? {}) };
    server().emit(...eventsOf(dispute, ['charge.dispute.updated']));
    return { body: fresh(dispute) };
  };

  return {
    route,
    disputes,
    open,
    submitEvidence(id, evidence = {}) {
      const dispute = known(id);
      update(dispute, evidence, true);
      return answer(dispute, ['charge.dispute.updated']);
    },
    win: (id) => close(known(id), 'won'),
    lose: (id) => close(known(id), 'lost'),
    closeInquiry: (id) => closeInquiry(known(id)),
    escalate,
    prevent,
    bind(target) {
      bound = target;
      target.addResolver((id) => (id.startsWith('du_') ? disputes.get(id) : undefined));
      // A refund is refused while a dispute of the charge says it is not refundable: a chargeback
      // (open or lost) or an inquiry refunded in full; a won dispute and a closed inquiry do not.
      target.addRefundGuard((charge) => {
        const forbidding = [...disputes.values()].find(
          (d) =>
            d.charge === charge.id &&
            d.status !== 'won' &&
            d.status !== 'warning_closed' &&
            d.status !== 'prevented' &&
            !d.is_charge_refundable,
        );
        if (forbidding)
          throw new StripeHttpError(
            400,
            'invalid_request_error',
            `Charge ${charge.id} has been charged back; cannot issue a refund.`,
            'charge_disputed',
          );
      });
      // A refund of the whole charge during an inquiry resolves it: warning_closed.
      target.addRefundListener((_refund, charge) => {
        if (charge.amount_refunded < charge.amount) return [];
        return [...disputes.values()]
          .filter((d) => d.charge === charge.id && isInquiry(d))
          .flatMap((d) => {
            d.is_charge_refundable = false;
            d.status = 'warning_closed';
            return eventsOf(d, ['charge.dispute.closed']);
          });
      });
    },
  };
}
