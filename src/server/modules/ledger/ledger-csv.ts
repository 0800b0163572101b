import type { Db } from '../../db/client';
import { csvCell } from '../../../domain/payouts';
import { formatCents, parseCents } from '../../../domain/money';
import { listLedgerPage } from './ledger.queries';

const COLUMNS = [
  'id',
  'created_at',
  'kind',
  'amount',
  'currency',
  'payment_id',
  'order_id',
  'user_id',
  'refund_id',
  'payout_id',
  'provider_reference',
  'entry_key',
] as const;

const PAGE = 1000;

/**
 * GET /api/admin/ledger.csv: every ledger entry in the order written, as CSV lines; cells a
 * spreadsheet would run as a formula are defused (docs/decisions/0013-money-movement.md).
 */
export async function* ledgerCsvLines(db: Db): AsyncGenerator<string> {
  yield `${COLUMNS.join(',')}\r\n`;
  let after = 0;
  for (;;) {
    const rows = await listLedgerPage(db, after, PAGE);
    for (const row of rows) {
      const cells = [
        row.id,
        row.createdAt.toISOString(),
        row.kind,
        formatCents(parseCents(row.amount)),
        row.currency,
        row.paymentId,
        row.orderId,
        row.userId,
        row.refundId,
        row.payoutId,
        row.providerReference,
        row.entryKey,
      ];
      yield `${cells.map(csvCell).join(',')}\r\n`;
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return;
    after = last.id;
  }
}
