import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AppLayout } from '../layouts/app-layout';
import { RoleGate, SELLER_GATE } from '../role-gate';

/** /seller/dashboard (spec seller §2), for sellers and admins. */
export function SellerDashboardPage() {
  useDocumentTitle('Seller Dashboard');
  return (
    <RoleGate {...SELLER_GATE}>
      <AppLayout>
        <PageHeading title="Seller Dashboard" subtitle="Manage your products, orders and earnings" />
      </AppLayout>
    </RoleGate>
  );
}
