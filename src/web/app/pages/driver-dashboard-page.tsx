import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AppLayout } from '../layouts/app-layout';
import { DRIVER_GATE, RoleGate } from '../role-gate';

/** /driver/dashboard (spec seller §2), for drivers and admins. */
export function DriverDashboardPage() {
  useDocumentTitle('Driver Dashboard');
  return (
    <RoleGate {...DRIVER_GATE}>
      <AppLayout>
        <PageHeading
          title="Driver Dashboard"
          subtitle="Find delivery requests, manage your deliveries and track your earnings"
        />
      </AppLayout>
    </RoleGate>
  );
}
