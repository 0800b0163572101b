import { Link } from 'wouter';
import { ArrowLeft } from 'lucide-react';
import { PageHeading } from '../../components/page-heading';
import { Button } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PaymentScreen } from '../../features/payments/components/payment-screen';
import { AppLayout } from '../layouts/app-layout';

/**
 * /payment, loaded on demand (docs/rules/screens-buyer.md, Cart and checkout screens; docs/rules/money.md,
 * Payments): the orders' summary and the card form.
 */
export function PaymentPage() {
  useDocumentTitle('Payment');
  return (
    <AppLayout>
      <Button asChild variant="ghost" className="mb-4 -ml-3">
        <Link href="/checkout">
          <ArrowLeft aria-hidden="true" />
          Back to Checkout
        </Link>
      </Button>
      <PageHeading title="Payment" subtitle="Review your order and pay securely" />
      <PaymentScreen />
    </AppLayout>
  );
}
