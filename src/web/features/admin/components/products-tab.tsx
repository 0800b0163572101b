import { useState } from 'react';
import { Link } from 'wouter';
import { Eye, EyeOff, Pencil } from 'lucide-react';
import { PRODUCT_STATUS_FILTERS, type ProductStatusFilter } from '@domain/admin';
import { ProductImage } from '../../../components/product-image';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { formatPrice } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useAdminProducts, type AdminProductRow } from '../api/get-admin-products';
import { useSetProductVisibility } from '../api/set-product-visibility';
import { useListFilters } from '../use-list-filters';
import { Cell, DataTable, ExportCsvLink, ListToolbar, PagedList, rowClass, type Column } from './list-parts';

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
  'Actions',
];

/** A product of the list with whether an admin hid it, as the list or this session's answers say. */
export type ListedProduct = AdminProductRow & { hidden: boolean };

/** Hide product (after a confirmation) or Show product, and Edit. */
function ProductActions({
  product,
  onEdit,
  onHide,
  isBusy,
  onShow,
}: {
  product: ListedProduct;
  onEdit: ((product: ListedProduct) => void) | undefined;
  onHide: (product: ListedProduct) => void;
  onShow: (product: ListedProduct) => void;
  isBusy: boolean;
}) {
  return (
    <span className="flex flex-wrap gap-2 lg:flex-nowrap">
      {product.hidden ? (
        <Button
          variant="outline"
          size="sm"
          disabled={isBusy}
          onClick={() => onShow(product)}
          aria-label={`Show product ${product.name}`}
        >
          <Eye aria-hidden="true" />
          Show product
        </Button>
      ) : (
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          disabled={isBusy}
          onClick={() => onHide(product)}
          aria-label={`Hide product ${product.name}`}
        >
          <EyeOff aria-hidden="true" />
          Hide product
        </Button>
      )}
      {onEdit ? (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onEdit(product)}
          aria-label={`Edit ${product.name}`}
          aria-haspopup="dialog"
        >
          <Pencil aria-hidden="true" />
          Edit
        </Button>
      ) : null}
    </span>
  );
}

/**
 * Products (docs/rules/screens-work.md, Admin screens): every product, available or hidden; search by
 * name, a category filter and Active/Inactive by the available flag; Hide product (after a
 * confirmation) or Show product, and Edit in the seller's listing form (the page opens it).
 */
export function ProductsTab({
  categories,
  onEdit,
}: {
  categories: readonly string[];
  /** Opens the listing form on this product; without it there is no Edit. */
  onEdit?: (product: ListedProduct) => void;
}) {
  const list = useListFilters({ category: 'All', status: 'all' as ProductStatusFilter });
  const category = list.filters.category === 'All' ? undefined : list.filters.category;
  const products = useAdminProducts({
    search: list.search,
    category,
    status: list.filters.status,
    page: list.page,
  });
  const categoryOptions = ['All', ...categories].map((name) => ({
    value: name,
    label: name === 'All' ? 'All categories' : name,
  }));
  const [hiding, setHiding] = useState<ListedProduct | null>(null);
  const visibility = useSetProductVisibility({
    onDone: (product) => {
      toast(
        product.hidden
          ? { title: 'Product hidden', description: `${product.name} is no longer in the catalog.` }
          : { title: 'Product shown', description: `${product.name} is back in the catalog.` },
      );
    },
    onFailed: (error, hidden) =>
      toastMutationError(error, hidden ? 'Failed to hide product' : 'Failed to show product', {
        appendServerMessage: true,
      }),
  });

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
      >
        <ExportCsvLink
          path="/api/admin/products.csv"
          filters={{ search: list.search, category, status: list.filters.status }}
          what="products"
        />
      </ListToolbar>
      <PagedList
        query={products}
        emptyText="No products found"
        what="products"
        onPageChange={list.setPage}
        isSearchPending={list.isSearchPending}
      >
        {(items) => (
          <DataTable caption="Products" minWidthClass="lg:min-w-[56rem]" columns={COLUMNS}>
            {items.map((product) => (
              <tr key={product.id} className={rowClass}>
                <Cell>
                  <span className="flex items-center gap-3">
                    <span className="size-10 shrink-0 overflow-hidden rounded-md border bg-muted">
                      <ProductImage src={product.imageUrl} alt="" />
                    </span>
                    <Link
                      href={`/products/${product.id}`}
                      className="min-w-0 font-medium break-words hover:underline"
                    >
                      {product.name}
                    </Link>
                  </span>
                </Cell>
                <Cell label="Category">{product.category}</Cell>
                <Cell label="Seller">{product.sellerName}</Cell>
                <Cell label="Price" className="text-right tabular-nums">
                  {formatPrice(product.price)}
                </Cell>
                <Cell label="Stock" className="text-right tabular-nums">
                  {product.stock}
                </Cell>
                <Cell label="Status">
                  <span className="inline-flex flex-wrap justify-end gap-1 lg:justify-start">
                    {product.available ? (
                      <Badge variant="success">Active</Badge>
                    ) : (
                      <Badge variant="secondary">Inactive</Badge>
                    )}
                    {product.hidden ? (
                      <Badge variant="warning">
                        <EyeOff aria-hidden="true" />
                        Hidden
                      </Badge>
                    ) : product.available && product.onSale === false ? (
                      // Out of the catalog with its seller, who may not sell now.
                      <Badge
                        variant="secondary"
                        title="Its seller is suspended or no longer holds the seller role"
                      >
                        Not on sale
                      </Badge>
                    ) : null}
                  </span>
                </Cell>
                <Cell className="pt-2 lg:pt-2.5">
                  <ProductActions
                    product={product}
                    onEdit={onEdit}
                    onHide={setHiding}
                    onShow={(shown) => visibility.mutate({ productId: shown.id, hidden: false })}
                    isBusy={visibility.isPending}
                  />
                </Cell>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      <ConfirmDialog
        open={hiding !== null}
        onOpenChange={(open) => (open ? undefined : setHiding(null))}
        title="Hide this product?"
        description={`“${hiding?.name ?? ''}” leaves the catalog, its page and checkouts. Its seller and admins still see it, and you can show it again.`}
        cancelLabel="Cancel"
        confirmLabel="Hide product"
        pendingLabel="Hiding..."
        isPending={visibility.isPending}
        onConfirm={() => {
          if (!hiding) return;
          visibility.mutate({ productId: hiding.id, hidden: true }, { onSettled: () => setHiding(null) });
        }}
      />
    </div>
  );
}
