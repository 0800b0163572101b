import { formatCents } from '../../../domain/money';
import { recordProviderFee } from '../ledger/ledger.service';
import type { PaymentDeps } from './payment-deps';
import { listPaymentsWithoutFee, setPaymentProviderFee, type PaymentRow } from './payments.queries';

const PAGE = 100;

/**
 * Learns the provider's processing fee of a processed payment's charge and writes it to the ledger
 * as `provider_fee` (docs/decisions/0018-money-against-stripe.md, Provider fees), in one
 * transaction with `payments.provider_fee`, once. Answers false while the provider does not know
 * the fee yet (Stripe: the charge has no balance transaction yet); the payments job asks again.
 */
export async function learnProviderFee(
  deps: PaymentDeps,
  payment: Pick<PaymentRow, 'id' | 'buyerId' | 'currency' | 'providerChargeId' | 'providerFee'>,
): Promise<boolean> {
  const chargeId = payment.providerChargeId;
  if (!chargeId || payment.providerFee !== null) return false;
  const fee = await deps.payments.retrieveChargeFee(chargeId);
  if (!fee) return false;
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const set = await setPaymentProviderFee(tx, payment.id, formatCents(fee.fee), now);
    if (!set) return;
    // The balance's currency is the fee's (Stripe: the balance transaction's currency).
    await recordProviderFee(tx, { ...payment, currency: fee.currency }, { amount: fee.fee, chargeId }, now);
  });
  return true;
}

/** After a payment is processed: its fee, if the provider knows it; a failure is left to the payments job. */
export async function learnProviderFeeQuietly(
  deps: PaymentDeps,
  payment: Parameters<typeof learnProviderFee>[1],
): Promise<void> {
  try {
    await learnProviderFee(deps, payment);
  } catch (error) {
    deps.log.warn({ err: error, paymentId: payment.id }, 'provider fee not learnt; will retry');
  }
}

/**
 * The payments job's part: every processed payment of the active provider whose fee is not known
 * yet is asked about (keyset pages, so none is skipped). Answers how many fees were learnt.
 */
export async function learnMissingProviderFees(deps: PaymentDeps): Promise<number> {
  let learnt = 0;
  let cursor: { processedAt: Date; id: string } | undefined;
  for (;;) {
    const page = await listPaymentsWithoutFee(deps.db, deps.payments.name, cursor, PAGE);
    for (const payment of page) {
      try {
        if (await learnProviderFee(deps, payment)) learnt += 1;
      } catch (error) {
        deps.log.error({ err: error, paymentId: payment.id }, 'could not learn a provider fee; will retry');
      }
    }
    const last = page.at(-1);
    if (!last?.processedAt || page.length < PAGE) break;
    cursor = { processedAt: last.processedAt, id: last.id };
  }
  return learnt;
}
