import { Boxes, Package, Store } from 'lucide-react';
import { productDisplayStatus, type SellerProduct } from '@domain/listings';
import { StatCard } from '../../../components/stat-card';
import { formatCount } from '@domain/format-count';

/**
 * Active Listings (available with stock), Total Products (every listing, cancelled ones too) and Total
 * Stock (units still for sale: cancelled listings are left out) (docs/rules/screens-work.md, Seller screens).
 */
export function listingStatsOf(products: readonly SellerProduct[]) {
  return {
    active: products.filter((product) => productDisplayStatus(product) === 'active').length,
    total: products.length,
    stock: products.filter((product) => product.available).reduce((sum, product) => sum + product.stock, 0),
  };
}

export function ListingStats({ products }: { products: readonly SellerProduct[] | undefined }) {
  const stats = products ? listingStatsOf(products) : undefined;
  const show = (value: number | undefined) => (value === undefined ? '–' : formatCount(value));
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <StatCard title="Active Listings" value={show(stats?.active)} icon={<Store />} />
      <StatCard title="Total Products" value={show(stats?.total)} icon={<Package />} />
      <StatCard title="Total Stock" value={show(stats?.stock)} icon={<Boxes />} />
    </div>
  );
}
