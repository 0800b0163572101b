import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { ClipboardList, PackageSearch } from 'lucide-react';
import { driverVerificationOf } from '@domain/deliveries';
import { isActiveDelivery } from '@domain/order-status';
import type { Order } from '@domain/orders';
import { PageHeading } from '../../components/page-heading';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useSignedInUser } from '../../lib/use-auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAddresses } from '../../features/addresses/api/get-addresses';
import { DRIVER_EARNINGS_KEY } from '../../features/deliveries/api/get-driver-earnings';
import { AvailableOrdersPanel } from '../../features/deliveries/components/available-orders-panel';
import type { DriverLocationStatus } from '../../features/deliveries/components/driver-distance-slider';
import { DriverStats } from '../../features/deliveries/components/driver-stats';
import {
  DriverVerificationCard,
  type DriverImageUploader,
} from '../../features/deliveries/components/driver-verification-card';
import { ORDERS_KEY, useOrders } from '../../features/orders/api/get-orders';
import type { PhotoUploader } from '../../features/orders/components/delivery-photo-dialog';
import { MyDeliveriesPanel } from '../../features/orders/components/my-deliveries-panel';
import { PayoutCard } from '../../features/payouts/components/payout-card';
import { PayoutsHistoryCard } from '../../features/payouts/components/payouts-history-card';
import { ImageUploadButton } from '../../features/uploads/components/image-upload-button';
import { AppLayout } from '../layouts/app-layout';
import { DRIVER_GATE, RoleGate } from '../role-gate';

type Tab = 'available' | 'deliveries';

/** The uploader of driver images and delivery photos, from the uploads feature. */
const driverImageUploader: DriverImageUploader = ({ kind, label, onUploaded, disabled }) => (
  <ImageUploadButton
    size="sm"
    className="w-full [&>button]:w-full"
    onUploaded={onUploaded}
    disabled={disabled}
    progressLabel={`Uploading ${kind} image`}
    data-testid={`button-upload-${kind}`}
  >
    {label}
  </ImageUploadButton>
);

const deliveryPhotoUploader: PhotoUploader = ({ label, onUploaded, disabled }) => (
  <ImageUploadButton
    className="[&>button]:w-full"
    onUploaded={onUploaded}
    disabled={disabled}
    progressLabel="Uploading delivery photo"
    data-testid="button-upload-delivery-photo"
  >
    {label}
  </ImageUploadButton>
);

/** Where pickup distances are measured from (docs/product-rules.md, Deliveries). */
function useLocationStatus(): DriverLocationStatus {
  const addresses = useAddresses();
  if (addresses.isLoading) return 'loading';
  const primary = addresses.data?.find((address) => address.isPrimary);
  return primary && primary.latitude !== null && primary.longitude !== null ? 'available' : 'unavailable';
}

/**
 * /driver/dashboard (docs/product-rules.md, Deliveries; Dashboards), for drivers and admins,
 * designed for a phone first: the stat cards, the verification card, then the tabs Available
 * Orders and My Deliveries.
 */
export function DriverDashboardPage() {
  useDocumentTitle('Driver Dashboard');
  return (
    <RoleGate {...DRIVER_GATE}>
      <AppLayout>
        <DriverDashboard />
      </AppLayout>
    </RoleGate>
  );
}

function DriverDashboard() {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  // A link to one delivery (the header's unread messages: ?order=) opens it in My Deliveries.
  const requestedOrderId = new URLSearchParams(useSearch()).get('order');
  const [tab, setTab] = useState<Tab>(requestedOrderId ? 'deliveries' : 'available');
  const [chosenId, setChosenId] = useState<string | null>(requestedOrderId);
  const tabsRef = useRef<HTMLDivElement>(null);
  const locationStatus = useLocationStatus();
  const deliveries = useOrders('driver');
  const isAdmin = user.roles.includes('admin');
  // Admins may act as drivers without documents (docs/product-rules.md, Deliveries).
  const missing = isAdmin ? [] : driverVerificationOf(user).missing;
  const activeCount = deliveries.data?.filter((order) => isActiveDelivery(order.status)).length;

  // The accepted order opens in My Deliveries, ready to start.
  const onAccepted = (order: Order) => {
    void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    setChosenId(order.id);
    setTab('deliveries');
    // The offer may have been far down a long list: show the delivery from its top.
    window.setTimeout(() => tabsRef.current?.scrollIntoView({ block: 'start' }), 0);
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeading
        className="mb-0"
        title="Driver Dashboard"
        subtitle="Find delivery requests, manage your deliveries and track your earnings"
      />
      <DriverStats activeCount={activeCount} />
      {/* Payouts go to drivers; an admin without the driver role has no payout account here. */}
      {user.roles.includes('driver') ? <PayoutCard dashboard="driver" /> : null}
      {user.roles.includes('driver') ? <PayoutsHistoryCard /> : null}
      {user.roles.includes('driver') && !isAdmin ? (
        <DriverVerificationCard user={user} uploader={driverImageUploader} />
      ) : null}
      <div ref={tabsRef} className="scroll-mt-20">
        <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)} className="flex flex-col gap-4">
          <TabsList
            aria-label="Driver dashboard"
            className="grid w-full grid-cols-2 sm:inline-flex sm:w-auto"
          >
            <TabsTrigger value="available" data-testid="tab-available-orders">
              <PackageSearch aria-hidden="true" />
              Available Orders
            </TabsTrigger>
            <TabsTrigger value="deliveries" data-testid="tab-my-deliveries">
              <ClipboardList aria-hidden="true" />
              My Deliveries
              {activeCount ? (
                <span className="rounded-full bg-primary px-1.5 text-xs tabular-nums text-primary-foreground">
                  {activeCount}
                </span>
              ) : null}
            </TabsTrigger>
          </TabsList>
          <TabsContent value="available">
            <AvailableOrdersPanel missing={missing} locationStatus={locationStatus} onAccepted={onAccepted} />
          </TabsContent>
          <TabsContent value="deliveries">
            <MyDeliveriesPanel
              driverId={user.id}
              chosenId={chosenId}
              onChoose={setChosenId}
              onDelivered={() => void queryClient.invalidateQueries({ queryKey: DRIVER_EARNINGS_KEY })}
              uploader={deliveryPhotoUploader}
            />
          </TabsContent>
        </Tabs>
      </div>
    </div>
  );
}
