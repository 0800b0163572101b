import { PRODUCT_STATUS_LABEL, productDisplayStatus, type SellerProduct } from '@domain/listings';
import { Badge, type BadgeProps } from '../../../components/ui/badge';

const VARIANT = {
  active: 'success',
  out_of_stock: 'warning',
  cancelled: 'secondary',
} as const satisfies Record<string, BadgeProps['variant']>;

/** Active, Out of Stock or Cancelled (docs/rules/selling.md, Seller listings). */
export function ProductStatusBadge({ product }: { product: Pick<SellerProduct, 'available' | 'stock'> }) {
  const status = productDisplayStatus(product);
  return (
    <Badge variant={VARIANT[status]} data-status={status}>
      {PRODUCT_STATUS_LABEL[status]}
    </Badge>
  );
}
