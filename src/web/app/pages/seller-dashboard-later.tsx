import type { ComponentProps } from 'react';
import { useSellerProducts } from '../../features/seller/api/get-seller-products';
import { CommissionStructure } from '../../features/seller/components/commission-structure';
import { EarningsChartCard } from '../../features/seller/components/earnings-chart-card';
import { EarningsSummary } from '../../features/seller/components/earnings-summary';
import { ListingStats } from '../../features/seller/components/listing-stats';
import { ListingsCard } from '../../features/seller/components/listings-card';
import { PayoutCard } from '../../features/payouts/components/payout-card';
import { PayoutsHistoryCard } from '../../features/payouts/components/payouts-history-card';

/**
 * The seller dashboard's sections below a phone's first screen, loaded apart from the page and drawn
 * once it is up (docs/decisions/0014-first-load.md, Drawn when scrolled near).
 */

/** The listing stat cards and the listings, with their own read of the seller's products. */
export function MyProducts(props: ComponentProps<typeof ListingsCard>) {
  const products = useSellerProducts();
  return (
    <>
      <ListingStats products={products.data} />
      <ListingsCard {...props} />
    </>
  );
}

/** The earnings, the commission structure, the weekly chart and, for a seller, the payouts. */
export function SellerEarnings({ sellerId, isSeller }: { sellerId: string; isSeller: boolean }) {
  return (
    <>
      <EarningsSummary sellerId={sellerId} />
      <EarningsChartCard />
      <CommissionStructure sellerId={sellerId} />
      {/* Payouts go to sellers; an admin without the seller role has no payout account here. */}
      {isSeller ? <PayoutCard dashboard="seller" /> : null}
      {isSeller ? <PayoutsHistoryCard /> : null}
    </>
  );
}
