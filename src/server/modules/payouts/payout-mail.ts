import type { Db } from '../../db/client';
import { queueMail } from '../notifications/mail-layout';
import { findOrderRow } from '../orders/order-records';
import { findUserById } from '../users/user-records';
import { formatUsd, parseCents } from '../../../domain/money';
import type { PayoutRow } from './payouts.queries';

/**
 * Tells a seller or driver that a payout went to their account, or that the provider refused it for
 * good and it waits for an admin (docs/decisions/0019-reaching-people.md, Mail). Queued with the
 * caller's handle, in the transaction that records the outcome where there is one.
 */
export async function queuePayoutMail(
  db: Db,
  siteUrl: string,
  payout: PayoutRow,
  outcome: 'sent' | 'failed',
): Promise<void> {
  const user = await findUserById(db, payout.userId);
  if (!user) return;
  const order = await findOrderRow(db, payout.orderId);
  const amount = formatUsd(parseCents(payout.amount));
  const forOrder = order ? ` for order ${order.orderNumber}` : '';
  const dashboard = payout.kind === 'driver' ? '/driver/dashboard' : '/seller/dashboard';
  await queueMail(db, {
    kind: outcome === 'sent' ? 'payout_sent' : 'payout_failed',
    userId: user.id,
    content: {
      to: user.email,
      greetingName: user.firstName,
      subject: outcome === 'sent' ? `Payout of ${amount} sent` : `Your payout of ${amount} could not be sent`,
      paragraphs:
        outcome === 'sent'
          ? [
              `We sent ${amount}${forOrder} to your payout account. Your bank usually shows it within a few business days.`,
            ]
          : [
              `The payment provider refused your payout of ${amount}${forOrder} several times, so we stopped trying. Please check your payout account; an admin will send it again once it is fixed.`,
            ],
      action: { label: 'See your payouts', url: `${siteUrl}${dashboard}` },
    },
  });
}
