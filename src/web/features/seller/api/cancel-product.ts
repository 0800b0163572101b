import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sellerProductSchema, type SellerProduct } from '@domain/listings';
import { apiSend } from '../../../lib/api-client';
import { invalidateListings } from './invalidate-listings';

/** DELETE /api/products/{id}: cancels the listing for good (it stays on its orders). */
export async function cancelProduct(id: string): Promise<SellerProduct> {
  return sellerProductSchema.parse(await apiSend('DELETE', `/api/products/${encodeURIComponent(id)}`));
}

export function useCancelProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelProduct,
    onSettled: () => invalidateListings(queryClient),
  });
}
