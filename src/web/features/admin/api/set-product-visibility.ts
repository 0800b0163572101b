import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sellerProductSchema, type SellerProduct } from '@domain/listings';
import { apiSend } from '../../../lib/api-client';
import { invalidateModeration } from './admin-data';

/**
 * PATCH /api/admin/products/{id}/visibility {hidden}: hides a product from the catalog, its page and
 * checkouts (its seller and admins still see it), or shows it again.
 */
export async function setProductVisibility(productId: string, hidden: boolean): Promise<SellerProduct> {
  return sellerProductSchema.parse(
    await apiSend('PATCH', `/api/admin/products/${encodeURIComponent(productId)}/visibility`, { hidden }),
  );
}

export function useSetProductVisibility(callbacks: {
  onDone: (product: SellerProduct) => void;
  onFailed: (error: unknown, hidden: boolean) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, hidden }: { productId: string; hidden: boolean }) =>
      setProductVisibility(productId, hidden),
    onSuccess: (product) => {
      callbacks.onDone(product);
      return invalidateModeration(queryClient);
    },
    onError: (error, { hidden }) => callbacks.onFailed(error, hidden),
  });
}
