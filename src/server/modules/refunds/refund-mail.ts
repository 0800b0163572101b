import type { Db } from '../../db/client';
import { queueMail } from '../notifications/mail-layout';
import { findUserById } from '../users/user-records';
import { formatUsd } from '../../../domain/money';

/** Tells the buyer of a finished order that an admin refunded it, in whole or in part. */
export async function queueRefundMail(
  db: Db,
  siteUrl: string,
  refund: { orderId: string; orderNumber: string; buyerId: string; amountCents: number; whole: boolean },
): Promise<void> {
  const buyer = await findUserById(db, refund.buyerId);
  if (!buyer) return;
  const amount = formatUsd(refund.amountCents);
  await queueMail(db, {
    kind: 'refund_issued',
    userId: buyer.id,
    content: {
      to: buyer.email,
      greetingName: buyer.firstName,
      subject: `Refund of ${amount} for order ${refund.orderNumber}`,
      paragraphs: [
        refund.whole
          ? `We refunded order ${refund.orderNumber} in full: ${amount} goes back to the card you paid with.`
          : `We refunded ${amount} of order ${refund.orderNumber} to the card you paid with.`,
        'Your bank may take 5 to 10 business days to show it.',
      ],
      action: { label: 'View your order', url: `${siteUrl}/buyer/orders?order=${refund.orderId}` },
    },
  });
}
