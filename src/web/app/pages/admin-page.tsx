import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
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
import { useLocation, useSearch } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import type { Category } from '@domain/categories';
import type { Order } from '@domain/orders';
import { PageHeading } from '../../components/page-heading';
import { ErrorBoundary } from '../../components/error-boundary';
import { PageLoading } from '../../components/page-loading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { preloadableLazy } from '../../lib/preloadable-lazy';
import { useSignedInUser } from '../../lib/use-auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useErrorToast } from '../../lib/use-error-toast';
import { useCategories } from '../../features/catalog/api/get-categories';
import { invalidateAdminData } from '../../features/admin/api/admin-data';
import { useProductForEdit } from '../../features/admin/api/get-product-for-edit';
import { AdminSummaryCards } from '../../features/admin/components/admin-summary-cards';
import type { ListedProduct } from '../../features/admin/components/products-tab';
import { UsersTab } from '../../features/admin/components/users-tab';
import { AppLayout } from '../layouts/app-layout';
import { ADMIN_GATE, RoleGate } from '../role-gate';
import { LazyListingDialog, preloadListingDialog } from './lazy-listing-dialog';

/**
 * The six tabs of the spec, then the refunds that need attention, the disputes, the payouts, the mail and the
 * audit trail (docs/rules/screens-work.md, Admin screens). The chosen tab is in the address (`?tab=`), so a
 * reload or a shared link opens it again.
 */
const TABS = [
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
type TabValue = (typeof TABS)[number]['value'];

/**
 * An order's details on the Orders tab, with the admin's refund: loaded with that tab, so the
 * details open at once and the page the admin lands on (Users) does without their code.
 */
const OrderDetailsPart = preloadableLazy<{ order: Order; adminId: string }>(async () => {
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
const TAB_PARTS = {
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

const isTab = (value: string | null): value is TabValue => TABS.some((tab) => tab.value === value);

/**
 * Loads the code of the tab named in `search` (`?tab=`), for a page the server rendered on that tab:
 * the browser hydrates once it is here, so a press on the tab (its pager, say) is never lost on a
 * part still waiting for its code (docs/decisions/0014-first-load.md, The first screen in the HTML).
 */
export function preloadAdminTab(search: string): Promise<unknown> {
  const tab = new URLSearchParams(search).get('tab');
  return isTab(tab) && tab !== 'users' ? TAB_PARTS[tab].preload() : Promise.resolve();
}

/**
 * Edit on the Products tab: the seller's listing form on the chosen product, once it is read
 * (an admin may change any product: docs/rules/selling.md, Seller listings). The admin lists are
 * read again when it closes.
 */
function ProductEditor({
  product,
  categories,
  categoriesFailed,
  onClose,
}: {
  product: ListedProduct | null;
  categories: readonly Category[];
  categoriesFailed: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const loaded = useProductForEdit(product);
  useErrorToast(loaded.error, 'This product could not be loaded.');
  const failed = product !== null && loaded.isError;
  useEffect(() => {
    if (failed) onClose();
  }, [failed, onClose]);
  const data = product ? loaded.data : undefined;
  // One target object per product read: the dialog keeps what it was opened on.
  const target = useMemo(() => (data ? ({ mode: 'edit', product: data } as const) : null), [data]);
  return (
    <LazyListingDialog
      target={target}
      onClose={() => {
        onClose();
        void invalidateAdminData(queryClient);
      }}
      categories={categories}
      categoriesFailed={categoriesFailed}
    />
  );
}

function AdminDashboard() {
  const user = useSignedInUser();
  const [, navigate] = useLocation();
  const requested = new URLSearchParams(useSearch()).get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'users';
  const categories = useCategories();
  const categoryNames = (categories.data ?? []).map((category) => category.name);
  const [editing, setEditing] = useState<ListedProduct | null>(null);
  const closeEditor = useCallback(() => setEditing(null), []);
  // The selected tab is in sight in the row, however far along the row it lies (a link to ?tab=activity).
  const selectedTabRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const selected = selectedTabRef.current;
    const row = selected?.parentElement;
    if (!selected || !row) return;
    const left = selected.offsetLeft;
    const right = left + selected.offsetWidth;
    if (left < row.scrollLeft) row.scrollLeft = left;
    else if (right > row.scrollLeft + row.clientWidth) row.scrollLeft = right - row.clientWidth;
  }, [tab]);

  const renderDetails = (order: Order) => (
    <OrderDetailsPart.Component key={order.id} order={order} adminId={user.id} />
  );

  return (
    <>
      <PageHeading
        title="Admin Dashboard"
        subtitle="Manage users, orders, products and marketplace settings"
      />
      <AdminSummaryCards />
      <Tabs value={tab} onValueChange={(value) => navigate(`/admin?tab=${value}`, { replace: true })}>
        {/* One row that scrolls sideways on a narrow screen, never rows of tabs that push the
            section down (docs/rules/screens-work.md, Admin screens); the icons show on wide screens only. */}
        <TabsList
          aria-label="Admin sections"
          className="relative mb-4 flex w-full justify-start overflow-x-auto overscroll-x-contain"
        >
          {TABS.map(({ value, label, icon: Icon }) => (
            <TabsTrigger
              key={value}
              value={value}
              className="shrink-0 px-2.5"
              ref={value === tab ? selectedTabRef : undefined}
            >
              <Icon aria-hidden="true" className="hidden 2xl:block" />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map(({ value, label, description }) => (
          <TabsContent key={value} value={value}>
            <Card>
              <CardHeader>
                <CardTitle as="h2" className="flex items-center gap-2">
                  {label}
                </CardTitle>
                <CardDescription>{description}</CardDescription>
              </CardHeader>
              <CardContent>
                <ErrorBoundary>
                  <Suspense fallback={<PageLoading label={`Loading ${label}...`} />}>
                    {value === 'users' ? <UsersTab adminId={user.id} /> : null}
                    {value === 'orders' ? <TAB_PARTS.orders.Component renderDetails={renderDetails} /> : null}
                    {value === 'products' ? (
                      <TAB_PARTS.products.Component categories={categoryNames} onEdit={setEditing} />
                    ) : null}
                    {value === 'categories' ? <TAB_PARTS.categories.Component /> : null}
                    {value === 'commission' ? <TAB_PARTS.commission.Component /> : null}
                    {value === 'drivers' ? <TAB_PARTS.drivers.Component adminId={user.id} /> : null}
                    {value === 'refunds' ? <TAB_PARTS.refunds.Component /> : null}
                    {value === 'disputes' ? <TAB_PARTS.disputes.Component /> : null}
                    {value === 'payouts' ? <TAB_PARTS.payouts.Component /> : null}
                    {value === 'mail' ? <TAB_PARTS.mail.Component /> : null}
                    {value === 'jobs' ? <TAB_PARTS.jobs.Component /> : null}
                    {value === 'activity' ? <TAB_PARTS.activity.Component /> : null}
                  </Suspense>
                </ErrorBoundary>
              </CardContent>
            </Card>
          </TabsContent>
        ))}
      </Tabs>
      <ProductEditor
        product={editing}
        categories={categories.data ?? []}
        categoriesFailed={categories.isError}
        onClose={closeEditor}
      />
    </>
  );
}

/** /admin (docs/rules/screens-work.md, Dashboards; Admin screens), for admins only; loaded on demand. */
export function AdminPage() {
  useDocumentTitle('Admin Dashboard');
  return (
    <RoleGate {...ADMIN_GATE}>
      <AppLayout>
        <AdminDashboard />
      </AppLayout>
    </RoleGate>
  );
}
