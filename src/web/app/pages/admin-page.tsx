import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AppLayout } from '../layouts/app-layout';
import { ADMIN_GATE, RoleGate } from '../role-gate';

/** /admin (spec seller §2), for admins only. */
export function AdminPage() {
  useDocumentTitle('Admin Dashboard');
  return (
    <RoleGate {...ADMIN_GATE}>
      <AppLayout>
        <PageHeading
          title="Admin Dashboard"
          subtitle="Manage users, orders, products and marketplace settings"
        />
      </AppLayout>
    </RoleGate>
  );
}
