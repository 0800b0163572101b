import type { ReactNode } from 'react';
import { PageHeading } from '../../components/page-heading';
import { useAuth } from '../../lib/use-auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CompanyInfo } from '../../features/support/components/company-info';
import { ContactForm } from '../../features/support/components/contact-form';
import { AppLayout } from '../layouts/app-layout';
import { PublicLayout } from '../layouts/public-layout';

/**
 * /support (docs/rules/screens-buyer.md, Account pages): open to visitors (landing header) and users (app
 * header).
 */
export function SupportPage() {
  useDocumentTitle('Support & Contact');
  const { user } = useAuth();

  const content: ReactNode = (
    <>
      <PageHeading
        title="Support & Contact"
        subtitle="Questions about an order, a payout or your account? We're here to help."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <ContactForm
            // A signed-in user's name and email are filled in; they can still edit them.
            key={user?.id ?? 'visitor'}
            initialValues={
              user
                ? {
                    name: [user.firstName, user.lastName].filter(Boolean).join(' '),
                    email: user.email,
                  }
                : undefined
            }
          />
        </div>
        <CompanyInfo />
      </div>
    </>
  );

  return user ? <AppLayout>{content}</AppLayout> : <PublicLayout>{content}</PublicLayout>;
}
