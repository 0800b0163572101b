import { sql, type SQL } from 'drizzle-orm';
import { orders } from './schema';

/**
 * The sales of the sellers `sellerIds` (a subquery answering their uuids) in [from, to): their
 * paid, not cancelled product subtotals (docs/rules/money.md, Fees and commission): one JSON object
 * by seller, null when none sold. A scalar subquery, for the statements that read the commission's
 * inputs with something else.
 *
 * Each seller's orders are summed on their own, through `orders_seller_idx` (seller, created):
 * what one confirmation reads grows with its sellers' orders of the period, not with everyone's
 * (docs/decisions/0025-checkout-statements.md, Each seller's sales read on their own).
 */
export function salesOfSellersJson(sellerIds: SQL, from: SQL, to: SQL): SQL<Record<string, string> | null> {
  return sql<Record<string, string> | null>`(
    select json_object_agg(seller.id, s.total) filter (where s.total is not null)
    from (select distinct ids.id from (${sellerIds}) as ids(id)) as seller
    cross join lateral (
      select sum(${orders.productSubtotal})::text as total
      from ${orders}
      where ${orders.sellerId} = seller.id
        and ${orders.status} <> 'cancelled'
        and ${orders.createdAt} >= ${from}
        and ${orders.createdAt} < ${to}
    ) s
  )`;
}
