import { ArrowLeft } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useGoBack } from '../../lib/use-go-back';
import { AppLayout } from '../layouts/app-layout';

/** /products/{id} (spec buyer §2 Product detail). The detail itself comes with GET /api/products/{id}. */
export function ProductPage() {
  useDocumentTitle('Product');
  const goBack = useGoBack();
  return (
    <AppLayout>
      <Button variant="ghost" onClick={goBack} className="mb-6 -ml-3" data-testid="button-back">
        <ArrowLeft aria-hidden="true" />
        Back
      </Button>
      <PageHeading title="Product" />
    </AppLayout>
  );
}
