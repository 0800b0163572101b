import { TriangleAlert } from 'lucide-react';
import type { OrderFlag } from '@domain/admin';
import { Badge } from '../../../components/ui/badge';

/**
 * Why an order needs an admin's eye ("Seller suspended"): an order not finished whose party is
 * suspended (docs/rules/known-differences.md, Admin).
 */
export function OrderFlagBadge({ flag }: { flag: OrderFlag }) {
  return (
    // Red outline: set apart from the amber Pending status beside it.
    <Badge variant="outline" className="border-destructive text-destructive">
      <TriangleAlert aria-hidden="true" />
      {flag}
    </Badge>
  );
}
