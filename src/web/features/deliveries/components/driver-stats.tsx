import { CalendarDays, CircleCheckBig, DollarSign, Sun, Truck } from 'lucide-react';
import { StatCard } from '../../../components/stat-card';
import { formatPrice } from '../../../lib/format';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useDriverEarnings } from '../api/get-driver-earnings';

/**
 * The driver's stat cards (docs/rules/deliveries.md, Deliveries): Today and This Week, what the
 * deliveries made then paid (marketplace time zone); Total Earnings (90%), what delivered orders
 * paid after the platform's commission; Active Deliveries, the orders assigned or in transit;
 * Completed Deliveries, the delivered ones.
 */
export function DriverStats({ activeCount }: { activeCount: number | undefined }) {
  const earnings = useDriverEarnings();
  useErrorToast(earnings.error, 'Failed to fetch earnings');
  const pending = '…';
  // Tighter than the card's default padding: on a phone the offers should start near the top.
  const compact = '[&>div]:p-4 sm:[&>div]:p-6';
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4" data-testid="driver-stats">
      <StatCard
        className={compact}
        title="Today"
        value={earnings.data ? formatPrice(earnings.data.today) : pending}
        icon={<Sun />}
      />
      <StatCard
        className={compact}
        title="This Week"
        value={earnings.data ? formatPrice(earnings.data.thisWeek) : pending}
        icon={<CalendarDays />}
      />
      <StatCard
        className={`col-span-2 sm:col-span-1 ${compact}`}
        title="Total Earnings (90%)"
        value={earnings.data ? formatPrice(earnings.data.totalEarnings) : pending}
        icon={<DollarSign />}
      />
      <StatCard
        className={compact}
        title="Active Deliveries"
        value={activeCount ?? pending}
        icon={<Truck />}
      />
      <StatCard
        className={compact}
        title="Completed Deliveries"
        value={earnings.data ? earnings.data.orderCount : pending}
        icon={<CircleCheckBig />}
      />
    </div>
  );
}
