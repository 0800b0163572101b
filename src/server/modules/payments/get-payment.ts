import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { canViewPayment } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import type { PaymentResult } from '../../../domain/checkout';
import type { PaymentDeps } from './payment-deps';
import { readPaymentResult } from './payment-result';
import { loyaltyWindowStart } from '../../../domain/fees';
import {
  findPaymentById,
  findPaymentForOrders,
  type PaymentForOrders,
  type PaymentRow,
} from './payments.queries';

export const PAYMENT_NOT_FOUND = 'Payment not found';

/** The payment if it is the actor's; 404 for anyone else (docs/rules/money.md, Payments). */
export async function findOwnPayment(db: Db, actor: Actor, id: string): Promise<PaymentRow> {
  const payment = await findPaymentById(db, id);
  if (!payment || !canViewPayment(actor, payment)) throw notFound(PAYMENT_NOT_FOUND);
  return payment;
}

/**
 * The payment if it is the actor's (404 for anyone else), read with its commission's inputs as
 * they stand at `now`: a confirmation hands them on to make the orders
 * (docs/decisions/0025-checkout-statements.md, One statement places a fresh checkout).
 */
export async function findOwnPaymentForOrders(
  db: Db,
  actor: Actor,
  id: string,
  now: Date,
): Promise<PaymentForOrders> {
  const read = await findPaymentForOrders(db, { id, now, salesFrom: loyaltyWindowStart(now) });
  if (!read || !canViewPayment(actor, read.payment)) throw notFound(PAYMENT_NOT_FOUND);
  return read;
}

/** GET /api/payments/{id}: how the payment stands, with its orders once made. */
export async function getPayment(deps: PaymentDeps, actor: Actor, id: string): Promise<PaymentResult> {
  return readPaymentResult(deps, await findOwnPayment(deps.db, actor, id));
}
