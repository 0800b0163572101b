import { CalendarRange, CircleCheckBig, DollarSign } from 'lucide-react';
import { StatCard } from '../../../components/stat-card';
import { useSeller30DaySales, useSellerEarnings } from '../api/get-earnings';
import { formatAmount } from '../format';
import { formatCount } from '@domain/format-count';

/**
 * Earnings (docs/rules/selling.md, Seller earnings): total earnings and orders completed, from
 * delivered and picked-up orders only, and the sales of the last 30 days. The first two show their
 * change over the last 7 days, computed by the server.
 */
export function EarningsSummary({ sellerId }: { sellerId: string }) {
  const earnings = useSellerEarnings();
  const sales = useSeller30DaySales(sellerId);
  const failed = '—';
  const loading = '…';
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <StatCard
        title="Total Earnings"
        value={
          earnings.data ? formatAmount(earnings.data.totalEarnings) : earnings.isError ? failed : loading
        }
        icon={<DollarSign />}
        trend={earnings.data?.earningsTrend ?? undefined}
      />
      <StatCard
        title="Orders Completed"
        value={earnings.data ? formatCount(earnings.data.orderCount) : earnings.isError ? failed : loading}
        icon={<CircleCheckBig />}
        trend={earnings.data?.orderCountTrend ?? undefined}
      />
      <StatCard
        title="30-Day Sales"
        value={sales.data ? formatAmount(sales.data.total) : sales.isError ? failed : loading}
        icon={<CalendarRange />}
      />
    </div>
  );
}
