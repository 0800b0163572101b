import { sql, type SQL } from 'drizzle-orm';
import { orders } from './schema';

/**
 * The sales of the sellers `sellerIds` (an array of uuids, or a subquery answering them) in
 * [from, to): their paid, not cancelled product subtotals (docs/rules/money.md, Fees and
 * commission): one JSON object by seller, null when none sold. A scalar subquery, for the
 * statements that read the commission's inputs with something else.
 */
export function salesOfSellersJson(sellerIds: SQL, from: SQL, to: SQL): SQL<Record<string, string> | null> {
  return sql<Record<string, string> | null>`(
    select json_object_agg(s.seller_id, s.total)
    from (
      select ${orders.sellerId} as seller_id, sum(${orders.productSubtotal})::text as total
      from ${orders}
      where ${orders.sellerId} = any(${sellerIds})
        and ${orders.status} <> 'cancelled'
        and ${orders.createdAt} >= ${from}
        and ${orders.createdAt} < ${to}
      group by ${orders.sellerId}
    ) s
  )`;
}
