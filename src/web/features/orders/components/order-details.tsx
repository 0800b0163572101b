import { useId, useState, type ReactNode } from 'react';
import {
  CalendarClock,
  Camera,
  CheckCheck,
  ExternalLink,
  Info,
  MapPin,
  MessageSquare,
  Navigation,
  Package,
  Receipt,
  Users,
} from 'lucide-react';
import { PICKUP_ADDRESS_NOT_AVAILABLE } from '@domain/address-messages';
import { fulfilmentLabel, isActiveDelivery } from '@domain/order-status';
import type { Order } from '@domain/orders';
import type { Role } from '@domain/roles';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatPickupTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { useOrderEvents } from '../api/get-order-events';
import {
  canCancel,
  deliveryDestination,
  directionsUrl,
  formatDateTime,
  formatPickupAddress,
  seesPrices,
  timelineOf,
} from '../order-view';
import { CancelOrderDialog } from './cancel-order-dialog';
import { DeliveryCodeNotice, DeliveryProof, hasDeliveryProof } from './order-delivery-proof';
import { DriverEarnings, OrderPaymentDetails } from './order-payment-details';
import { OrderItemsList } from './order-items-list';
import { OrderParties } from './order-parties';
import { OrderRefundBadge, OrderStatusBadge } from './order-status-badge';
import { OrderRefundsList } from './order-refunds-list';
import { OrderDisputeBadge, OrderDisputeNote } from './order-dispute-badge';
import { OrderStatusTimeline } from './order-status-timeline';
import { UserProfileDialog } from './user-profile-dialog';
import { OrderMessagesPanel } from '../../messages/components/order-messages-panel';
import { ReviewPrompts } from '../../reviews/components/review-prompts';

/** Texts of the order view (docs/rules/screens-buyer.md, Order screens). */
export const LOCATION_NOT_AVAILABLE = 'Location not available';
export const NOT_SPECIFIED = 'Not specified';

function Section({
  title,
  icon,
  children,
  className,
}: {
  title: string;
  icon: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  return (
    // A region named by its heading, so each part of the order can be reached by name.
    <section className={className} aria-labelledby={headingId}>
      <h3 id={headingId} className="mb-3 flex items-center gap-2 text-sm font-semibold">
        {icon}
        {title}
      </h3>
      {children}
    </section>
  );
}

function InfoRow({
  label,
  value,
  stacked = false,
}: {
  label: string;
  value: ReactNode;
  /** Long values (addresses, notes) read better under their label. */
  stacked?: boolean;
}) {
  return (
    <div className={cn('flex flex-col gap-0.5', !stacked && 'sm:flex-row sm:justify-between sm:gap-3')}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={cn('break-words', !stacked && 'sm:text-right')}>{value}</dd>
    </div>
  );
}

const iconClass = 'size-4 text-muted-foreground';

export interface OrderDetailsProps {
  order: Order;
  /** Whose view this is: it decides prices, earnings and actions, whatever the header's role says. */
  viewerRole: Role;
  viewerId: string;
  /** Role-specific actions (accept, status changes) of the other dashboards. */
  actions?: ReactNode;
}

/**
 * The order details view shared by all roles (docs/rules/screens-buyer.md, Order screens): status
 * timeline, the people involved, addresses with a directions link, items, delivery photo, payment
 * details and earnings, and the order information. Drivers see no prices and only their own
 * earnings.
 */
export function OrderDetails({ order, viewerRole, viewerId, actions }: OrderDetailsProps) {
  const [profileId, setProfileId] = useState<string | null>(null);
  const events = useOrderEvents(order.id, order.updatedAt);
  const steps = timelineOf(order, events.data);
  const showPrices = seesPrices(viewerRole);
  const pickupText = formatPickupAddress(order.pickupAddress);
  const destination = deliveryDestination(order);
  const directions = directionsUrl(order);
  const created = formatDateTime(order.createdAt);
  const cancellable = canCancel(order, viewerRole);
  const expectedArrival = order.isPickup ? null : formatDateTime(order.estimatedDeliveryTime);
  const numberId = useId();
  const arrivalId = useId();

  return (
    // A region named by the order's number, so the details of one order can be told from another's.
    <Card role="region" aria-labelledby={numberId}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle as="h2" className="flex flex-wrap items-center gap-2">
            <span id={numberId}>{order.orderNumber}</span>
            <OrderStatusBadge status={order.status} />
            <OrderDisputeBadge dispute={order.dispute} />
            <OrderRefundBadge state={order.refundState} />
          </CardTitle>
          <CardDescription>
            {fulfilmentLabel(order)}
            {created ? ` · Placed ${created}` : null}
            <OrderDisputeNote dispute={order.dispute} />
          </CardDescription>
        </div>
        {/* Always mounted: the cancel dialog closes itself after the order stopped being cancellable. */}
        <div className="flex flex-wrap gap-2 empty:hidden">
          {actions}
          <CancelOrderDialog order={order} viewerIsBuyer={viewerRole === 'buyer'} canCancel={cancellable} />
        </div>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-8 pt-6 md:grid-cols-2">
        {/* Finished orders ask their buyer, seller and driver for reviews (docs/rules/selling.md, Reviews and messages). */}
        {viewerRole === 'admin' ? null : (
          <div className="empty:hidden md:col-span-2">
            <ReviewPrompts orderId={order.id} status={order.status} viewerId={viewerId} />
          </div>
        )}
        <Section title="Order Status" icon={<CalendarClock className={iconClass} aria-hidden="true" />}>
          <OrderStatusTimeline steps={steps} isLoading={events.isLoading} />
          <OrderRefundsList refunds={order.refunds} />
          {/* While the driver is on the way, the arrival they set is what the buyer looks for
              (docs/rules/screens-work.md, Driver dashboard). */}
          {/* A status: the driver may change the time while the buyer looks, and it is read out. */}
          {expectedArrival && isActiveDelivery(order.status) ? (
            <p
              role="status"
              aria-labelledby={arrivalId}
              className="mt-4 rounded-lg bg-accent px-3 py-2 text-sm"
            >
              <span id={arrivalId}>Expected arrival: </span>
              <span className="font-medium">{expectedArrival}</span>
            </p>
          ) : null}
          <DeliveryCodeNotice order={order} />
          {events.isError ? (
            <p role="alert" className="mt-3 text-xs text-destructive">
              The times of this order could not be loaded.
            </p>
          ) : null}
        </Section>

        <Section title="People" icon={<Users className={iconClass} aria-hidden="true" />}>
          <OrderParties order={order} viewerId={viewerId} onOpenProfile={setProfileId} />
        </Section>

        <Section title="Addresses" icon={<MapPin className={iconClass} aria-hidden="true" />}>
          <dl className="flex flex-col gap-3 text-sm">
            <InfoRow stacked label="Pickup address" value={pickupText ?? PICKUP_ADDRESS_NOT_AVAILABLE} />
            {order.isPickup ? null : (
              <InfoRow stacked label="Delivery address" value={destination ?? LOCATION_NOT_AVAILABLE} />
            )}
            {order.deliveryNotes ? (
              <InfoRow stacked label="Delivery notes" value={order.deliveryNotes} />
            ) : null}
          </dl>
          <div className="mt-3">
            {directions ? (
              <Button asChild variant="outline" size="sm">
                <a href={directions} target="_blank" rel="noopener noreferrer">
                  <Navigation aria-hidden="true" />
                  Get Directions
                  <ExternalLink aria-hidden="true" />
                  <span className="sr-only"> (opens Google Maps in a new tab)</span>
                </a>
              </Button>
            ) : (
              <p className="text-sm text-muted-foreground">{LOCATION_NOT_AVAILABLE}</p>
            )}
          </div>
        </Section>

        <Section title="Order Information" icon={<Info className={iconClass} aria-hidden="true" />}>
          <dl className="flex flex-col gap-3 text-sm">
            <InfoRow label="Order number" value={order.orderNumber} />
            <InfoRow label="Created" value={created ?? NOT_SPECIFIED} />
            <InfoRow
              label="Pickup time"
              value={formatPickupTime(order.scheduledPickupTime) ?? NOT_SPECIFIED}
            />
            {order.isPickup ? null : (
              <InfoRow
                label="Estimated delivery"
                value={formatDateTime(order.estimatedDeliveryTime) ?? NOT_SPECIFIED}
              />
            )}
          </dl>
        </Section>

        <Section
          title="Items"
          icon={<Package className={iconClass} aria-hidden="true" />}
          className="md:col-span-2"
        >
          <OrderItemsList orderId={order.id} showPrices={showPrices} />
        </Section>

        {hasDeliveryProof(order) ? (
          <Section
            title="Proof of Delivery"
            icon={<CheckCheck className={iconClass} aria-hidden="true" />}
            className="md:col-span-2"
          >
            <DeliveryProof order={order} />
          </Section>
        ) : null}

        {order.deliveryPhotoUrl ? (
          <Section title="Delivery Photo" icon={<Camera className={iconClass} aria-hidden="true" />}>
            <a
              href={order.deliveryPhotoUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="block w-fit"
            >
              <img
                src={order.deliveryPhotoUrl}
                alt={`Delivery photo of ${order.orderNumber}`}
                className="max-h-64 rounded-lg border object-cover"
                loading="lazy"
              />
            </a>
          </Section>
        ) : null}

        <Section
          title={showPrices ? 'Payment Details' : 'Earnings'}
          icon={<Receipt className={iconClass} aria-hidden="true" />}
          className={order.deliveryPhotoUrl ? undefined : 'md:col-span-2'}
        >
          {showPrices ? <OrderPaymentDetails order={order} /> : <DriverEarnings order={order} />}
        </Section>

        <Section
          title="Messages"
          icon={<MessageSquare className={iconClass} aria-hidden="true" />}
          className="md:col-span-2"
        >
          <OrderMessagesPanel orderId={order.id} viewerId={viewerId} />
        </Section>
      </CardContent>
      <UserProfileDialog userId={profileId} onClose={() => setProfileId(null)} />
    </Card>
  );
}
