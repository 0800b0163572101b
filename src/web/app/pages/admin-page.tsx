import { History, Landmark, Package, Percent, ShoppingCart, Tags, Truck, Undo2, Users } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import type { Order } from '@domain/orders';
import { PageHeading } from '../../components/page-heading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useSignedInUser } from '../../lib/use-auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useCategories } from '../../features/catalog/api/get-categories';
import { ActivityTab } from '../../features/admin/components/activity-tab';
import { AdminSummaryCards } from '../../features/admin/components/admin-summary-cards';
import { CategoriesTab } from '../../features/admin/components/categories-tab';
import { CommissionSettingsTab } from '../../features/admin/components/commission-settings-tab';
import { DriverVerificationTab } from '../../features/admin/components/driver-verification-tab';
import { OrdersTab } from '../../features/admin/components/orders-tab';
import { ProductsTab } from '../../features/admin/components/products-tab';
import { RefundsTab } from '../../features/admin/components/refunds-tab';
import { PayoutsTab } from '../../features/admin/components/payouts-tab';
import { RefundOrderButton } from '../../features/admin/components/refund-order-button';
import { UsersTab } from '../../features/admin/components/users-tab';
import { OrderDetails } from '../../features/orders/components/order-details';
import { AppLayout } from '../layouts/app-layout';
import { ADMIN_GATE, RoleGate } from '../role-gate';

/**
 * The six tabs of the spec, then the refunds that need attention, the payouts and the audit trail
 * (docs/product-rules.md, Admin screens). The chosen
 * tab is in the address (`?tab=`), so a reload or a shared link opens it again.
 */
const TABS = [
  {
    value: 'users',
    label: 'Users',
    icon: Users,
    description: 'Search by name or email, filter by role, and change the role of any other user.',
  },
  {
    value: 'orders',
    label: 'Orders',
    icon: ShoppingCart,
    description: 'Search by order number, filter by status, and open an order for its timeline.',
  },
  {
    value: 'products',
    label: 'Products',
    icon: Package,
    description: 'Every product of every seller, active or not.',
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
    value: 'payouts',
    label: 'Payouts',
    icon: Landmark,
    description:
      'The platform balance, what is owed to sellers and drivers, payouts that failed, and the ledger as CSV.',
  },
  {
    value: 'activity',
    label: 'Activity',
    icon: History,
    description: 'Every admin action: who did what, the values before and after, and when.',
  },
] as const;
type TabValue = (typeof TABS)[number]['value'];

const isTab = (value: string | null): value is TabValue => TABS.some((tab) => tab.value === value);

function AdminDashboard() {
  const user = useSignedInUser();
  const [, navigate] = useLocation();
  const requested = new URLSearchParams(useSearch()).get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'users';
  const categories = useCategories();
  const categoryNames = (categories.data ?? []).map((category) => category.name);

  const renderDetails = (order: Order) => (
    <div key={order.id} className="flex flex-col gap-4">
      <OrderDetails order={order} viewerRole="admin" viewerId={user.id} />
      <RefundOrderButton order={order} />
    </div>
  );

  return (
    <>
      <PageHeading
        title="Admin Dashboard"
        subtitle="Manage users, orders, products and marketplace settings"
      />
      <AdminSummaryCards />
      <Tabs value={tab} onValueChange={(value) => navigate(`/admin?tab=${value}`, { replace: true })}>
        <TabsList aria-label="Admin sections" className="mb-4 flex w-full flex-wrap justify-start">
          {TABS.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value} data-testid={`tab-${value}`}>
              <Icon aria-hidden="true" />
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
                {value === 'users' ? <UsersTab adminId={user.id} /> : null}
                {value === 'orders' ? <OrdersTab renderDetails={renderDetails} /> : null}
                {value === 'products' ? <ProductsTab categories={categoryNames} /> : null}
                {value === 'categories' ? <CategoriesTab /> : null}
                {value === 'commission' ? <CommissionSettingsTab /> : null}
                {value === 'drivers' ? <DriverVerificationTab adminId={user.id} /> : null}
                {value === 'refunds' ? <RefundsTab /> : null}
                {value === 'payouts' ? <PayoutsTab /> : null}
                {value === 'activity' ? <ActivityTab /> : null}
              </CardContent>
            </Card>
          </TabsContent>
        ))}
      </Tabs>
    </>
  );
}

/** /admin (docs/product-rules.md, Dashboards; Admin screens), for admins only; loaded on demand. */
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
