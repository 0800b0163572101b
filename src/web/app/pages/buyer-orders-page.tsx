import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { BuyerOrdersLayout } from '../layouts/buyer-orders-layout';

/** /buyer/orders (spec buyer §2 My Orders), with its own header. */
export function BuyerOrdersPage() {
  useDocumentTitle('My Orders');
  return (
    <BuyerOrdersLayout>
      <PageHeading title="My Orders" subtitle="Track and manage your orders" />
    </BuyerOrdersLayout>
  );
}
