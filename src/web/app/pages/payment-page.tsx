import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AppLayout } from '../layouts/app-layout';

/** /payment, loaded on demand (spec buyer §2). The summary and card form come with the payments work. */
export function PaymentPage() {
  useDocumentTitle('Payment');
  return (
    <AppLayout>
      <PageHeading title="Payment" />
    </AppLayout>
  );
}
