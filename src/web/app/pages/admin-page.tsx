import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import type { Category } from '@domain/categories';
import type { Order } from '@domain/orders';
import { PageHeading } from '../../components/page-heading';
import { ErrorBoundary } from '../../components/error-boundary';
import { PageLoading } from '../../components/page-loading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
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
import { LazyListingDialog } from './lazy-listing-dialog';
import { isTab, OrderDetailsPart, TAB_PARTS, TABS, type TabValue } from './admin-tabs';
import { Suspense } from '../../components/suspense';

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
