import { DollarSign, Package, ShoppingCart, Users } from 'lucide-react';
import { StatCard } from '../../../components/stat-card';
import { formatPrice } from '../../../lib/format';
import { useAdminSummary } from '../api/get-admin-summary';
import { formatCount } from '@domain/format-count';

const count = (value: number | undefined) => (value === undefined ? '—' : formatCount(value));

/**
 * Total Users, Total Orders, Total Products and Total Revenue (docs/rules/screens-work.md, Admin screens):
 * revenue is the platform's fees of orders not cancelled, with the gross order value under it. Each
 * card shows its change over the last 7 days, computed by the server; none when the week before had
 * nothing to compare with.
 */
export function AdminSummaryCards() {
  const summary = useAdminSummary();
  const data = summary.data;
  return (
    <section aria-label="Summary" className="mb-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard
        title="Total Users"
        value={count(data?.totalUsers)}
        icon={<Users />}
        trend={data?.trends.users ?? undefined}
      />
      <StatCard
        title="Total Orders"
        value={count(data?.totalOrders)}
        icon={<ShoppingCart />}
        trend={data?.trends.orders ?? undefined}
      />
      <StatCard
        title="Total Products"
        value={count(data?.totalProducts)}
        icon={<Package />}
        trend={data?.trends.products ?? undefined}
      />
      <StatCard
        title="Total Revenue"
        value={data ? formatPrice(data.totalRevenue) : '—'}
        description={data ? `Platform fees on ${formatPrice(data.grossOrderValue)} of orders` : undefined}
        icon={<DollarSign />}
        trend={data?.trends.revenue ?? undefined}
      />
      {summary.isError ? (
        <p role="alert" className="text-sm text-destructive sm:col-span-2 lg:col-span-4">
          The summary could not be loaded.
        </p>
      ) : null}
    </section>
  );
}
