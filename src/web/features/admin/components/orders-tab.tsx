import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ORDER_STATUS_FILTERS } from '@domain/admin';
import { STATUS_BADGE } from '@domain/order-status';
import type { Order } from '@domain/orders';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { invalidateAdminData } from '../api/admin-data';
import { useAdminOrders } from '../api/get-admin-orders';
import { useOrder } from '../api/get-order';
import { useListFilters } from '../use-list-filters';
import { ListToolbar, PagedList } from './list-parts';
import { OrderStatusLabel } from './order-status-label';

const STATUS_OPTIONS = ORDER_STATUS_FILTERS.map((value) => ({
  value,
  label: value === 'all' ? 'All statuses' : STATUS_BADGE[value],
}));

/**
 * Orders (docs/product-rules.md, Admin screens): search by order number, a status filter, and the
 * chosen order's details with its timeline, where an admin may cancel an order that is not
 * finished. The details view is the shared one, handed in by the page.
 */
export function OrdersTab({ renderDetails }: { renderDetails: (order: Order) => ReactNode }) {
  const list = useListFilters({ status: 'all' as (typeof ORDER_STATUS_FILTERS)[number] });
  const orders = useAdminOrders({ search: list.search, status: list.filters.status, page: list.page });
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
    <div className="grid gap-6 xl:grid-cols-5">
      <div className="xl:col-span-2">
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
        />
        <PagedList query={orders} emptyText="No orders found" what="orders" onPageChange={list.setPage}>
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
                      )}
                      data-testid={`row-order-${order.orderNumber}`}
                    >
                      <span className="flex flex-wrap items-center justify-between gap-2">
                        <span className="font-mono font-semibold">{order.orderNumber}</span>
                        <OrderStatusLabel status={order.status} />
                      </span>
                      <span className="flex flex-wrap justify-between gap-2 text-muted-foreground">
                        <span>
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
      <div ref={detailsRef} className="scroll-mt-20 xl:col-span-3">
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
