import type { SellerProduct } from '@domain/listings';
import { LoadFailed } from '../../../components/load-failed';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useSellerProducts } from '../api/get-seller-products';
import { SellerProductList } from './seller-product-list';

export interface ListingsCardProps {
  onCreate: () => void;
  onEdit: (product: SellerProduct) => void;
  onCancel: (product: SellerProduct) => void;
}

function SellerProducts({ onCreate, onEdit, onCancel }: ListingsCardProps) {
  const products = useSellerProducts();
  if (products.isLoading)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading your products...
      </p>
    );
  if (products.isError || !products.data)
    return (
      <LoadFailed
        message="Your products could not be loaded."
        onRetry={() => void products.refetch()}
        isRetrying={products.isFetching}
      />
    );
  return (
    <SellerProductList products={products.data} onCreate={onCreate} onEdit={onEdit} onCancel={onCancel} />
  );
}

/**
 * The seller's Listings (docs/rules/screens-work.md, Seller screens): every product they listed, with
 * the ways to create, edit and cancel one; the dialogs are the page's.
 */
export function ListingsCard(props: ListingsCardProps) {
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1.5">
          <CardTitle as="h3">Listings</CardTitle>
          <CardDescription>
            Active listings are on sale; a cancelled listing stays on its orders but can no longer be bought.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <SellerProducts {...props} />
      </CardContent>
    </Card>
  );
}
