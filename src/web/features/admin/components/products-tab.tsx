import { Link } from 'wouter';
import { ADMIN_PAGE_SIZE, PRODUCT_STATUS_FILTERS, type ProductStatusFilter } from '@domain/admin';
import { Pager } from '../../../components/pager';
import { ProductImage } from '../../../components/product-image';
import { Badge } from '../../../components/ui/badge';
import { formatPrice } from '../../../lib/format';
import { useAdminProducts } from '../api/get-admin-products';
import { useListFilters } from '../use-list-filters';
import {
  DataTable,
  FilterSelect,
  ListState,
  rangeText,
  SearchBox,
  Toolbar,
  tdClass,
  thClass,
} from './list-parts';

const STATUS_LABELS: Record<ProductStatusFilter, string> = {
  all: 'All statuses',
  active: 'Active',
  inactive: 'Inactive',
};
const STATUS_OPTIONS = PRODUCT_STATUS_FILTERS.map((value) => ({ value, label: STATUS_LABELS[value] }));

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
  const data = products.data;
  const categoryOptions = ['All', ...categories].map((name) => ({
    value: name,
    label: name === 'All' ? 'All categories' : name,
  }));

  return (
    <div>
      <Toolbar>
        <SearchBox
          id="product-search"
          label="Search products"
          placeholder="Search by product name"
          value={list.searchText}
          onChange={list.setSearchText}
        />
        <FilterSelect
          id="product-category-filter"
          label="Filter by category"
          value={list.filters.category}
          options={categoryOptions}
          onChange={(category) => list.setFilter('category', category)}
        />
        <FilterSelect
          id="product-status-filter"
          label="Filter by status"
          value={list.filters.status}
          options={STATUS_OPTIONS}
          onChange={(status) => list.setFilter('status', status)}
        />
      </Toolbar>
      <ListState
        isLoading={products.isLoading}
        isError={products.isError}
        isEmpty={data?.items.length === 0}
        emptyText="No products found"
        what="products"
        onRetry={() => void products.refetch()}
      >
        {data ? (
          <>
            <p className="mb-2 text-xs text-muted-foreground">
              {rangeText(data.page, ADMIN_PAGE_SIZE, data.items.length, data.total)}
            </p>
            <DataTable caption="Products" minWidthClass="min-w-[48rem]">
              <thead>
                <tr>
                  <th className={thClass}>Product</th>
                  <th className={thClass}>Category</th>
                  <th className={thClass}>Seller</th>
                  <th className={`${thClass} text-right`}>Price</th>
                  <th className={`${thClass} text-right`}>Stock</th>
                  <th className={thClass}>Status</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((product) => (
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
              </tbody>
            </DataTable>
            <Pager
              page={data.page}
              pageCount={data.pageCount}
              onPageChange={list.setPage}
              label="Products pages"
            />
          </>
        ) : null}
      </ListState>
    </div>
  );
}
