import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ORDER_DATE_RANGE_MESSAGE, ORDER_STATUS_FILTERS } from '@domain/admin';
import { STATUS_BADGE } from '@domain/order-status';
import type { Order } from '@domain/orders';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { invalidateAdminData } from '../api/admin-data';
import { useAdminOrders } from '../api/get-admin-orders';
import { useOrder } from '../api/get-order';
import { useListFilters, useTextFilters } from '../use-list-filters';
import { ExportCsvLink, ListToolbar, PagedList } from './list-parts';
import { OrderFlagBadge } from './order-flag-badge';
import { OrderStatusLabel } from './order-status-label';

const STATUS_OPTIONS = ORDER_STATUS_FILTERS.map((value) => ({
  value,
  label: value === 'all' ? 'All statuses' : STATUS_BADGE[value],
}));

const PARTIES = [
  { key: 'buyer', label: 'Buyer' },
  { key: 'seller', label: 'Seller' },
  { key: 'driver', label: 'Driver' },
] as const;
type Party = (typeof PARTIES)[number]['key'];

function FilterField({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="grid min-w-0 content-start gap-1.5">
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Orders (docs/rules/screens-work.md, Admin screens): search by order number, a status filter, each
 * party by name or email and the days placed on; a flag on an order whose party is suspended; the
 * list as CSV; and the chosen order's details with its timeline, where an admin may cancel an order
 * that is not finished. The details view is the shared one, handed in by the page.
 */
export function OrdersTab({ renderDetails }: { renderDetails: (order: Order) => ReactNode }) {
  const list = useListFilters({
    status: 'all' as (typeof ORDER_STATUS_FILTERS)[number],
    from: '',
    to: '',
  });
  const parties = useTextFilters<Party>({ buyer: '', seller: '', driver: '' }, () => list.setPage(1));
  const { from, to } = list.filters;
  // YYYY-MM-DD strings order like the days they name; the server refuses such a range (400).
  const rangeError = from && to && to < from ? ORDER_DATE_RANGE_MESSAGE : undefined;
  const filters = {
    search: list.search,
    status: list.filters.status,
    buyer: parties.sentOf('buyer'),
    seller: parties.sentOf('seller'),
    driver: parties.sentOf('driver'),
    from: from || undefined,
    to: rangeError ? undefined : to || undefined,
  };
  const orders = useAdminOrders({ ...filters, page: list.page });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = useOrder(selectedId);
  const detailsRef = useRef<HTMLDivElement>(null);
  const queryClient = useQueryClient();

  // A change made in the details (a cancellation) shows in the list, the cards and the activity.
  const selectedStatus = selected.data?.status;
  const seenStatus = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (selectedStatus === undefined) return;
    if (seenStatus.current !== undefined && seenStatus.current !== selectedStatus)
      void invalidateAdminData(queryClient);
    seenStatus.current = selectedStatus;
  }, [selectedStatus, queryClient]);

  const choose = (id: string) => {
    seenStatus.current = undefined;
    setSelectedId(id);
    // Below xl the details sit under the list: bring them into view. Side by side they already are.
    if (typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 1279px)').matches) {
      window.setTimeout(() => detailsRef.current?.scrollIntoView({ block: 'start' }), 0);
    }
  };

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-5">
      <div className="min-w-0 xl:col-span-2">
        <ListToolbar
          list={list}
          search={{
            id: 'order-search',
            label: 'Search orders by order number',
            placeholder: 'Search by order number',
          }}
          filters={[
            { key: 'status', id: 'order-status-filter', label: 'Filter by status', options: STATUS_OPTIONS },
          ]}
        >
          <ExportCsvLink path="/api/admin/orders.csv" filters={filters} what="orders" />
        </ListToolbar>
        <fieldset className="mb-4 grid min-w-0 grid-cols-6 gap-3">
          <legend className="mb-2 text-xs text-muted-foreground">
            Find orders by a buyer, seller or driver (name or email) and the days they were placed on.
          </legend>
          {PARTIES.map(({ key, label }) => (
            <div
              key={key}
              className={key === 'driver' ? 'col-span-6 sm:col-span-2' : 'col-span-3 sm:col-span-2'}
            >
              <FilterField id={`order-${key}-filter`} label={label}>
                <Input
                  id={`order-${key}-filter`}
                  type="search"
                  value={parties.typed[key]}
                  onChange={(event) => parties.setText(key, event.target.value)}
                  autoComplete="off"
                />
              </FilterField>
            </div>
          ))}
          <div className="col-span-6 sm:col-span-3">
            <FilterField id="order-from-filter" label="Placed from">
              <Input
                id="order-from-filter"
                type="date"
                value={from}
                max={to || undefined}
                onChange={(event) => list.setFilter('from', event.target.value)}
              />
            </FilterField>
          </div>
          <div className="col-span-6 sm:col-span-3">
            <FilterField id="order-to-filter" label="Placed to" error={rangeError}>
              <Input
                id="order-to-filter"
                type="date"
                value={to}
                min={from || undefined}
                onChange={(event) => list.setFilter('to', event.target.value)}
                aria-invalid={rangeError ? true : undefined}
                aria-describedby={rangeError ? 'order-to-filter-error' : undefined}
              />
            </FilterField>
          </div>
        </fieldset>
        <PagedList
          query={orders}
          emptyText="No orders found"
          what="orders"
          onPageChange={list.setPage}
          isSearchPending={list.isSearchPending}
        >
          {(items) => (
            <ul className="flex flex-col gap-2" aria-label="Orders">
              {items.map((order) => {
                const isSelected = order.id === selectedId;
                return (
                  <li key={order.id}>
                    <button
                      type="button"
                      onClick={() => choose(order.id)}
                      aria-current={isSelected ? 'true' : undefined}
                      className={cn(
                        'flex w-full flex-col gap-1 rounded-lg border p-3 text-left text-sm transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                        isSelected && 'border-primary bg-accent',
                        order.flag && !isSelected && 'border-amber-400 dark:border-amber-700',
                      )}
                    >
                      <span className="flex flex-wrap items-center justify-between gap-2">
                        <span className="font-mono font-semibold">{order.orderNumber}</span>
                        <span className="flex flex-wrap items-center gap-1.5">
                          {order.flag ? <OrderFlagBadge flag={order.flag} /> : null}
                          <OrderStatusLabel status={order.status} />
                        </span>
                      </span>
                      <span className="flex flex-wrap justify-between gap-2 text-muted-foreground">
                        <span className="min-w-0 break-words">
                          {order.buyerName} from {order.sellerName}
                        </span>
                        <span className="tabular-nums text-foreground">{formatPrice(order.total)}</span>
                      </span>
                      <span className="text-xs text-muted-foreground">{formatDateTime(order.createdAt)}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </PagedList>
      </div>
      <div ref={detailsRef} className="min-w-0 scroll-mt-20 xl:col-span-3">
        {selectedId === null ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
            Choose an order to see its details and timeline.
          </p>
        ) : selected.isError ? (
          <p role="alert" className="rounded-lg border p-4 text-sm">
            This order could not be loaded.
          </p>
        ) : selected.data ? (
          renderDetails(selected.data)
        ) : (
          <p role="status" className="p-8 text-center text-sm text-muted-foreground">
            Loading order...
          </p>
        )}
      </div>
    </div>
  );
}
