// The admin page's tabs and the code each loads when first opened, apart from the page itself so that
// the page's module exports only its component (React's fast refresh keeps its state on an edit).
import {
  Cog,
  History,
  Landmark,
  Mail,
  Package,
  Percent,
  ShieldAlert,
  ShoppingCart,
  Tags,
  Truck,
  Undo2,
  Users,
} from 'lucide-react';
import type { Order } from '@domain/orders';
import { preloadableLazy } from '../../lib/preloadable-lazy';
import { preloadListingDialog } from './lazy-listing-dialog';

/**
 * The six tabs of the spec, then the refunds that need attention, the disputes, the payouts, the mail and the
 * audit trail (docs/rules/screens-work.md, Admin screens). The chosen tab is in the address (`?tab=`), so a
 * reload or a shared link opens it again.
 */
export const TABS = [
  {
    value: 'users',
    label: 'Users',
    icon: Users,
    description:
      'Search by name or email and filter by role. Current role sets the role a user works in now (granted if they lack it; the other roles they hold stay). Open Details to take a role away, suspend or restore them.',
  },
  {
    value: 'orders',
    label: 'Orders',
    icon: ShoppingCart,
    description:
      'Search by order number, buyer, seller, driver and the days placed on; an order whose party is suspended is flagged. Open an order for its timeline.',
  },
  {
    value: 'products',
    label: 'Products',
    icon: Package,
    description:
      'Every product of every seller, active, inactive or hidden. Hide a product from the catalog, show it again, or edit it.',
  },
  {
    value: 'categories',
    label: 'Categories',
    icon: Tags,
    description: 'Add, rename and delete categories. Renaming one renames it on its products.',
  },
  {
    value: 'commission',
    label: 'Commission Settings',
    icon: Percent,
    description: 'The rates and tiers of the platform commission, as percentages and amounts.',
  },
  {
    value: 'drivers',
    label: 'Driver Verification',
    icon: Truck,
    description: 'Look at each driver’s vehicle, license and trailer images, then approve, reject or revoke.',
  },
  {
    value: 'refunds',
    label: 'Refunds',
    icon: Undo2,
    description:
      'Refunds that failed or still wait: the order, the amount, why, what went wrong, the attempts and since when.',
  },
  {
    value: 'disputes',
    label: 'Disputes',
    icon: ShieldAlert,
    description:
      'Chargebacks on payments, open ones first by evidence deadline: the orders, the amount and fee, the reason, the status and the dispute in Stripe.',
  },
  {
    value: 'payouts',
    label: 'Payouts',
    icon: Landmark,
    description:
      'The platform balance, what is owed to sellers and drivers, payouts that failed, and the ledger as CSV.',
  },
  {
    value: 'mail',
    label: 'Mail',
    icon: Mail,
    description:
      'Every mail sent or waiting, newest first: to whom, the subject, its state, the attempts and the last error, and its text.',
  },
  {
    value: 'jobs',
    label: 'Jobs',
    icon: Cog,
    description:
      'The work the server finishes on its own (payments, payouts, mail and push): runs waiting and running, failures of the last day and why, and the messages still to send.',
  },
  {
    value: 'activity',
    label: 'Activity',
    icon: History,
    description: 'Every admin action: who did what, the values before and after, and when.',
  },
] as const;
export type TabValue = (typeof TABS)[number]['value'];

/**
 * An order's details on the Orders tab, with the admin's refund: loaded with that tab, so the
 * details open at once and the page the admin lands on (Users) does without their code.
 */
export const OrderDetailsPart = preloadableLazy<{ order: Order; adminId: string }>(async () => {
  const [{ OrderDetails }, { RefundOrderButton }] = await Promise.all([
    import('../../features/orders/components/order-details'),
    import('../../features/admin/components/refund-order-button'),
  ]);
  return function AdminOrderDetails({ order, adminId }: { order: Order; adminId: string }) {
    return (
      <div className="flex flex-col gap-4">
        <OrderDetails order={order} viewerRole="admin" viewerId={adminId} />
        <RefundOrderButton order={order} />
      </div>
    );
  };
});

/**
 * Every tab but Users (the one the page opens on) is loaded when first opened, or before the page
 * hydrates when the address names it (`preloadAdminTab`): the page's own chunk stays small, and so
 * does the work of starting it on a phone (docs/decisions/0014-first-load.md).
 */
export const TAB_PARTS = {
  activity: preloadableLazy(
    async () => (await import('../../features/admin/components/activity-tab')).ActivityTab,
  ),
  categories: preloadableLazy(
    async () => (await import('../../features/admin/components/categories-tab')).CategoriesTab,
  ),
  commission: preloadableLazy(
    async () =>
      (await import('../../features/admin/components/commission-settings-tab')).CommissionSettingsTab,
  ),
  drivers: preloadableLazy(
    async () =>
      (await import('../../features/admin/components/driver-verification-tab')).DriverVerificationTab,
  ),
  orders: preloadableLazy(async () => {
    const [{ OrdersTab }] = await Promise.all([
      import('../../features/admin/components/orders-tab'),
      OrderDetailsPart.preload(),
    ]);
    return OrdersTab;
  }),
  refunds: preloadableLazy(
    async () => (await import('../../features/admin/components/refunds-tab')).RefundsTab,
  ),
  disputes: preloadableLazy(
    async () => (await import('../../features/admin/components/disputes-tab')).DisputesTab,
  ),
  payouts: preloadableLazy(
    async () => (await import('../../features/admin/components/payouts-tab')).PayoutsTab,
  ),
  mail: preloadableLazy(async () => (await import('../../features/admin/components/mail-tab')).MailTab),
  jobs: preloadableLazy(async () => (await import('../../features/admin/components/jobs-tab')).JobsTab),
  // Its Edit opens the listing form: the form's code comes with the tab.
  products: preloadableLazy(async () => {
    const [{ ProductsTab }] = await Promise.all([
      import('../../features/admin/components/products-tab'),
      preloadListingDialog(),
    ]);
    return ProductsTab;
  }),
};

export const isTab = (value: string | null): value is TabValue => TABS.some((tab) => tab.value === value);

/**
 * Loads the code of the tab named in `search` (`?tab=`), for a page the server rendered on that tab:
 * the browser hydrates once it is here, so a press on the tab (its pager, say) is never lost on a
 * part still waiting for its code (docs/decisions/0014-first-load.md, The first screen in the HTML).
 */
export function preloadAdminTab(search: string): Promise<unknown> {
  const tab = new URLSearchParams(search).get('tab');
  return isTab(tab) && tab !== 'users' ? TAB_PARTS[tab].preload() : Promise.resolve();
}
