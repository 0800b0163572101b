import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedInUser } from '../../lib/use-auth';
import { ManageAddressesCard } from '../../features/addresses/components/manage-addresses-card';
import { LazyNotificationsCard } from '../../features/notifications/components/lazy-notifications-card';
import { PersonalInformationCard } from '../../features/users/components/personal-information-card';
import { RolesCard } from '../../features/users/components/roles-card';
import { OfferEmailsCard } from '../../features/users/components/offer-emails-card';
import { PasswordCard } from '../../features/users/components/password-card';
import { TwoFactorCard } from '../../features/users/components/two-factor-card';
import { AppLayout } from '../layouts/app-layout';

/**
 * /profile (docs/rules/screens-buyer.md, Account pages): names, read-only email and role, two-factor
 * sign-in, password, addresses, roles to add.
 */
export function ProfilePage() {
  useDocumentTitle('Profile');
  const user = useSignedInUser();

  return (
    <AppLayout>
      <PageHeading title="Profile" subtitle="Manage your personal information" />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="flex flex-col gap-6 lg:col-span-2">
          <PersonalInformationCard user={user} />
          <TwoFactorCard user={user} />
          <PasswordCard user={user} />
          <LazyNotificationsCard user={user} />
        </div>
        <div className="flex flex-col gap-6">
          <RolesCard user={user} />
          <OfferEmailsCard user={user} />
          <ManageAddressesCard />
        </div>
      </div>
    </AppLayout>
  );
}
