import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { ClipboardList, PackageSearch, Wallet } from 'lucide-react';
import { driverVerificationOf } from '@domain/deliveries';
import { isActiveDelivery } from '@domain/order-status';
import { PAYOUT_RETURN_PARAM } from '@domain/payout-accounts';
import type { Order } from '@domain/orders';
import { PageHeading } from '../../components/page-heading';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useSignedInUser } from '../../lib/use-auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAddresses } from '../../features/addresses/api/get-addresses';
import { DRIVER_EARNINGS_KEY } from '../../features/deliveries/api/get-driver-earnings';
import { DRIVER_TRIPS_KEY } from '../../features/deliveries/api/get-driver-trips';
import { AvailableOrdersPanel } from '../../features/deliveries/components/available-orders-panel';
import type { DriverLocationStatus } from '../../features/deliveries/components/driver-distance-slider';
import { DriverEarningsPanel } from '../../features/deliveries/components/driver-earnings-panel';
import { DriverStats } from '../../features/deliveries/components/driver-stats';
import {
  DriverVerificationCard,
  type DriverImageUploader,
} from '../../features/deliveries/components/driver-verification-card';
import { useOrders } from '../../features/orders/api/get-orders';
import { ORDERS_KEY } from '../../features/orders/api/order-keys';
import type { PhotoUploader } from '../../features/orders/components/delivery-photo-dialog';
import { MyDeliveriesPanel } from '../../features/orders/components/my-deliveries-panel';
import { PayoutCard } from '../../features/payouts/components/payout-card';
import { PayoutsHistoryCard } from '../../features/payouts/components/payouts-history-card';
import { ImageUploadButton } from '../../features/uploads/components/image-upload-button';
import { AppLayout } from '../layouts/app-layout';
import { DRIVER_GATE, RoleGate } from '../role-gate';

type Tab = 'available' | 'deliveries' | 'earnings';

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

/** On a phone three tabs share 390 px: their labels may take two lines, each a thumb-sized target. */
const TAB_CLASSES = 'min-h-11 max-sm:gap-1 max-sm:whitespace-normal max-sm:px-1 max-sm:leading-tight';

/** Where pickup distances are measured from (docs/rules/deliveries.md, Deliveries). */
function useLocationStatus(): DriverLocationStatus {
  const addresses = useAddresses();
  if (addresses.isLoading) return 'loading';
  const primary = addresses.data?.find((address) => address.isPrimary);
  return primary && primary.latitude !== null && primary.longitude !== null ? 'available' : 'unavailable';
}

/**
 * /driver/dashboard (docs/rules/deliveries.md, Deliveries; docs/rules/screens-work.md, Dashboards; Driver
 * dashboard), for drivers and admins, designed for a 390 × 844 phone first: the work comes first. The tabs
 * open on the delivery under way, else on the offers with their Accept buttons; earnings and payouts have a
 * tab of their own, and the verification card comes first only while it is what stands between the driver and
 * the offers.
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
  const search = new URLSearchParams(useSearch());
  const requestedOrderId = search.get('order');
  // Back from the payout provider (?payouts=): the payout card is under Earnings. Otherwise null
  // until the driver picks a tab: then the delivery under way, else the offers.
  const [pickedTab, setPickedTab] = useState<Tab | null>(() =>
    requestedOrderId ? 'deliveries' : search.has(PAYOUT_RETURN_PARAM) ? 'earnings' : null,
  );
  const [chosenId, setChosenId] = useState<string | null>(requestedOrderId);
  const tabsRef = useRef<HTMLDivElement>(null);
  const initialOrderId = useRef(requestedOrderId);
  // A later link to another delivery (a toast's View on this page) opens it too, from its top.
  const [followedOrderId, setFollowedOrderId] = useState(requestedOrderId);
  if (requestedOrderId !== followedOrderId) {
    setFollowedOrderId(requestedOrderId);
    if (requestedOrderId) {
      setChosenId(requestedOrderId);
      setPickedTab('deliveries');
    }
  }
  useEffect(() => {
    if (requestedOrderId && requestedOrderId !== initialOrderId.current)
      tabsRef.current?.scrollIntoView({ block: 'start' });
  }, [requestedOrderId]);
  const locationStatus = useLocationStatus();
  const deliveries = useOrders('driver');
  const isAdmin = user.roles.includes('admin');
  const isDriver = user.roles.includes('driver');
  // Admins may act as drivers without documents (docs/rules/deliveries.md, Deliveries).
  const missing = isAdmin ? [] : driverVerificationOf(user).missing;
  const activeCount = deliveries.data?.filter((order) => isActiveDelivery(order.status)).length;
  const tab: Tab = pickedTab ?? (activeCount ? 'deliveries' : 'available');
  const verificationCard =
    isDriver && !isAdmin ? <DriverVerificationCard user={user} uploader={driverImageUploader} /> : null;

  // The accepted order opens in My Deliveries, ready to start.
  const onAccepted = (order: Order) => {
    void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    setChosenId(order.id);
    setPickedTab('deliveries');
    // The offer may have been far down a long list: show the delivery from its top.
    window.setTimeout(() => tabsRef.current?.scrollIntoView({ block: 'start' }), 0);
  };

  return (
    <div className="flex flex-col gap-4 sm:gap-6">
      <PageHeading
        className="mb-0"
        title="Driver Dashboard"
        subtitle="Find delivery requests, manage your deliveries and track your earnings"
      />
      {missing.length > 0 ? verificationCard : null}
      <div ref={tabsRef} className="scroll-mt-20">
        <Tabs
          value={tab}
          onValueChange={(value) => setPickedTab(value as Tab)}
          className="flex flex-col gap-4"
        >
          <TabsList
            aria-label="Driver dashboard"
            className="grid w-full grid-cols-3 sm:inline-flex sm:w-auto"
          >
            <TabsTrigger value="available" className={TAB_CLASSES}>
              <PackageSearch aria-hidden="true" className="max-sm:hidden" />
              Available Orders
            </TabsTrigger>
            <TabsTrigger value="deliveries" className={TAB_CLASSES}>
              <ClipboardList aria-hidden="true" className="max-sm:hidden" />
              My Deliveries
              {activeCount ? (
                <span className="rounded-full bg-primary px-1.5 text-xs tabular-nums text-primary-foreground">
                  {activeCount}
                </span>
              ) : null}
            </TabsTrigger>
            <TabsTrigger value="earnings" className={TAB_CLASSES}>
              <Wallet aria-hidden="true" className="max-sm:hidden" />
              Earnings
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
              onDelivered={() => {
                void queryClient.invalidateQueries({ queryKey: DRIVER_EARNINGS_KEY });
                void queryClient.invalidateQueries({ queryKey: DRIVER_TRIPS_KEY });
              }}
              uploader={deliveryPhotoUploader}
            />
          </TabsContent>
          <TabsContent value="earnings" className="flex flex-col gap-4 sm:gap-6">
            <DriverStats activeCount={activeCount} />
            <DriverEarningsPanel />
            {/* Payouts go to drivers; an admin without the driver role has no payout account here. */}
            {isDriver ? <PayoutCard dashboard="driver" /> : null}
            {isDriver ? <PayoutsHistoryCard /> : null}
          </TabsContent>
        </Tabs>
      </div>
      {missing.length > 0 ? null : verificationCard}
    </div>
  );
}
