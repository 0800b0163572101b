import { Link } from 'wouter';
import { PRODUCT_STATUS_FILTERS, type ProductStatusFilter } from '@domain/admin';
import { ProductImage } from '../../../components/product-image';
import { Badge } from '../../../components/ui/badge';
import { formatPrice } from '../../../lib/format';
import { useAdminProducts } from '../api/get-admin-products';
import { useListFilters } from '../use-list-filters';
import { DataTable, ListToolbar, PagedList, tdClass, type Column } from './list-parts';

const STATUS_LABELS: Record<ProductStatusFilter, string> = {
  all: 'All statuses',
  active: 'Active',
  inactive: 'Inactive',
};
const STATUS_OPTIONS = PRODUCT_STATUS_FILTERS.map((value) => ({ value, label: STATUS_LABELS[value] }));
const COLUMNS: Column[] = [
  'Product',
  'Category',
  'Seller',
  { label: 'Price', className: 'text-right' },
  { label: 'Stock', className: 'text-right' },
  'Status',
];

/**
 * Products (docs/product-rules.md, Admin screens): every product, available or not; search by name,
 * a category filter and Active/Inactive by the available flag.
 */
export function ProductsTab({ categories }: { categories: readonly string[] }) {
  const list = useListFilters({ category: 'All', status: 'all' as ProductStatusFilter });
  const products = useAdminProducts({
    search: list.search,
    category: list.filters.category === 'All' ? undefined : list.filters.category,
    status: list.filters.status,
    page: list.page,
  });
  const categoryOptions = ['All', ...categories].map((name) => ({
    value: name,
    label: name === 'All' ? 'All categories' : name,
  }));

  return (
    <div>
      <ListToolbar
        list={list}
        search={{ id: 'product-search', label: 'Search products', placeholder: 'Search by product name' }}
        filters={[
          {
            key: 'category',
            id: 'product-category-filter',
            label: 'Filter by category',
            options: categoryOptions,
          },
          { key: 'status', id: 'product-status-filter', label: 'Filter by status', options: STATUS_OPTIONS },
        ]}
      />
      <PagedList query={products} emptyText="No products found" what="products" onPageChange={list.setPage}>
        {(items) => (
          <DataTable caption="Products" minWidthClass="min-w-[48rem]" columns={COLUMNS}>
            {items.map((product) => (
              <tr key={product.id} data-testid={`row-product-${product.id}`}>
                <td className={tdClass}>
                  <span className="flex items-center gap-3">
                    <span className="size-10 shrink-0 overflow-hidden rounded-md border bg-muted">
                      <ProductImage src={product.imageUrl} alt="" />
                    </span>
                    <Link href={`/products/${product.id}`} className="font-medium hover:underline">
                      {product.name}
                    </Link>
                  </span>
                </td>
                <td className={tdClass}>{product.category}</td>
                <td className={tdClass}>{product.sellerName}</td>
                <td className={`${tdClass} text-right tabular-nums`}>{formatPrice(product.price)}</td>
                <td className={`${tdClass} text-right tabular-nums`}>{product.stock}</td>
                <td className={tdClass}>
                  {product.available ? (
                    <Badge variant="success">Active</Badge>
                  ) : (
                    <Badge variant="secondary">Inactive</Badge>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </div>
  );
}
