import { useId, useState } from 'react';
import { Ban, Check, ImageOff, ShieldOff } from 'lucide-react';
import {
  DRIVER_STATUS_FILTERS,
  driverVerificationStatus,
  type AdminDriver,
  type DriverVerificationStatus,
} from '@domain/admin';
import { displayName } from '@domain/roles';
import { Badge, type BadgeProps } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { formatDateTime } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useAdminDrivers } from '../api/get-admin-drivers';
import { useVerifyDriver } from '../api/verify-driver';
import { useListFilters } from '../use-list-filters';
import { ListToolbar, PagedList } from './list-parts';

const STATUS_OPTIONS = DRIVER_STATUS_FILTERS.map((value) => ({
  value,
  label: { all: 'All drivers', pending: 'Pending', verified: 'Verified' }[value],
}));

const STATUS_BADGES: Record<DriverVerificationStatus, { label: string; variant: BadgeProps['variant'] }> = {
  verified: { label: 'Verified', variant: 'success' },
  'awaiting-review': { label: 'Pending review', variant: 'warning' },
  'missing-images': { label: 'Pending: images missing', variant: 'secondary' },
  rejected: { label: 'Rejected', variant: 'destructive' },
  revoked: { label: 'Revoked', variant: 'destructive' },
};

const DECISION_WORDS = { approved: 'Approved', rejected: 'Rejected', revoked: 'Revoked' } as const;

type ImageKind = 'vehicle' | 'license' | 'trailer';
const IMAGE_LABELS: Record<ImageKind, string> = {
  vehicle: 'Vehicle',
  license: 'License',
  trailer: 'Trailer',
};

/** One of the driver's images; a click shows it large. Readable by the driver and admins only. */
function DriverImage({
  kind,
  url,
  driverName,
  onOpen,
}: {
  kind: ImageKind;
  url: string | null;
  driverName: string;
  onOpen: (image: { url: string; title: string }) => void;
}) {
  const title = `${IMAGE_LABELS[kind]} image of ${driverName}`;
  return (
    <figure className="flex min-w-0 flex-col gap-1.5">
      {url ? (
        <button
          type="button"
          onClick={() => onOpen({ url, title })}
          className="aspect-[4/3] overflow-hidden rounded-md border bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={`View ${title.toLowerCase()}`}
        >
          <img src={url} alt={title} className="size-full object-cover" loading="lazy" />
        </button>
      ) : (
        <div className="flex aspect-[4/3] flex-col items-center justify-center gap-1 rounded-md border border-dashed text-center text-xs text-muted-foreground">
          <ImageOff className="size-4" aria-hidden="true" />
          {kind === 'trailer' ? 'No trailer' : 'Not uploaded'}
        </div>
      )}
      <figcaption className="text-xs font-medium text-muted-foreground">{IMAGE_LABELS[kind]}</figcaption>
    </figure>
  );
}

function DriverCard({
  driver,
  isSelf,
  onOpenImage,
}: {
  driver: AdminDriver;
  /** An admin who also drives: nobody approves themselves. */
  isSelf: boolean;
  onOpenImage: (image: { url: string; title: string }) => void;
}) {
  const name = displayName({ ...driver, role: 'driver' });
  const status = driverVerificationStatus(driver);
  const badge = STATUS_BADGES[status];
  const hasImages = Boolean(driver.vehicleImageUrl && driver.licenseImageUrl);
  const verify = useVerifyDriver({
    onDone: (updated) => {
      const word = updated.isVerified
        ? 'approved'
        : updated.lastDecision?.decision === 'revoked'
          ? 'revoked'
          : 'rejected';
      toast({
        title:
          word === 'approved'
            ? 'Driver approved'
            : word === 'revoked'
              ? 'Verification revoked'
              : 'Driver rejected',
        description: `${name} was ${word}.`,
      });
    },
    onFailed: (error) => toastMutationError(error, 'Failed to update driver verification'),
  });
  const decide = (isVerified: boolean) => verify.mutate({ driverId: driver.id, isVerified });
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);
  const missingId = `driver-missing-${driver.id}`;
  const titleId = useId();
  const emailId = useId();

  return (
    // min-w-0: a grid item may shrink below its content, so a long badge or email never widens the page.
    // The card is a region named by the driver's name and email, so it can be reached and told apart.
    <Card className="flex min-w-0 flex-col" role="region" aria-labelledby={`${titleId} ${emailId}`}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-3">
        <div className="min-w-0">
          <CardTitle as="h3" id={titleId} className="truncate text-base">
            {name}
          </CardTitle>
          <CardDescription id={emailId} className="truncate" title={driver.email}>
            {driver.email}
          </CardDescription>
        </div>
        <div className="flex flex-wrap justify-end gap-1">
          {driver.documentsChangedAt ? <Badge variant="warning">Documents changed</Badge> : null}
          <Badge variant={badge.variant}>{badge.label}</Badge>
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <div className="grid grid-cols-3 gap-2">
          <DriverImage kind="vehicle" url={driver.vehicleImageUrl} driverName={name} onOpen={onOpenImage} />
          <DriverImage kind="license" url={driver.licenseImageUrl} driverName={name} onOpen={onOpenImage} />
          <DriverImage kind="trailer" url={driver.trailerImageUrl} driverName={name} onOpen={onOpenImage} />
        </div>
        {driver.documentsChangedAt ? (
          <p className="text-xs font-medium">
            Replaced a document after approval · {formatDateTime(driver.documentsChangedAt)}
          </p>
        ) : null}
        {driver.lastDecision ? (
          <p className="text-xs text-muted-foreground">
            {DECISION_WORDS[driver.lastDecision.decision]} by {driver.lastDecision.adminName} ·{' '}
            {formatDateTime(driver.lastDecision.at)}
          </p>
        ) : null}
        {!driver.isVerified && !hasImages ? (
          <p id={missingId} className="text-xs text-muted-foreground">
            Approval needs both the vehicle and the license image.
          </p>
        ) : null}
        <div className="mt-auto flex flex-wrap gap-2">
          {isSelf ? (
            <p className="text-xs text-muted-foreground">This is you: another admin decides.</p>
          ) : driver.isVerified ? (
            <Button
              variant="outline"
              className="text-destructive hover:text-destructive"
              onClick={() => setConfirmingRevoke(true)}
              disabled={verify.isPending}
              aria-haspopup="dialog"
            >
              <ShieldOff aria-hidden="true" />
              Revoke
            </Button>
          ) : (
            <>
              <Button
                onClick={() => decide(true)}
                disabled={verify.isPending || !hasImages}
                aria-describedby={hasImages ? undefined : missingId}
              >
                <Check aria-hidden="true" />
                Approve
              </Button>
              {status === 'rejected' ? null : (
                <Button
                  variant="outline"
                  className="text-destructive hover:text-destructive"
                  onClick={() => decide(false)}
                  disabled={verify.isPending}
                >
                  <Ban aria-hidden="true" />
                  Reject
                </Button>
              )}
            </>
          )}
        </div>
        <ConfirmDialog
          open={confirmingRevoke}
          onOpenChange={setConfirmingRevoke}
          title="Revoke this driver’s verification?"
          description={`${name} can no longer accept delivery orders until an admin approves them again.`}
          cancelLabel="Keep Verified"
          confirmLabel="Revoke"
          pendingLabel="Revoking..."
          isPending={verify.isPending}
          onConfirm={() =>
            verify.mutate(
              { driverId: driver.id, isVerified: false },
              { onSettled: () => setConfirmingRevoke(false) },
            )
          }
        />
      </CardContent>
    </Card>
  );
}

/**
 * Driver Verification (docs/rules/screens-work.md, Admin screens): a card per driver with the vehicle,
 * license and trailer images (shown to admins only) and Approve, Reject or Revoke.
 */
export function DriverVerificationTab({ adminId }: { adminId: string }) {
  const list = useListFilters({ status: 'pending' as (typeof DRIVER_STATUS_FILTERS)[number] });
  const drivers = useAdminDrivers({ search: list.search, status: list.filters.status, page: list.page });
  const [image, setImage] = useState<{ url: string; title: string } | null>(null);
  return (
    <div>
      <ListToolbar
        list={list}
        search={{ id: 'driver-search', label: 'Search drivers', placeholder: 'Search by name or email' }}
        filters={[
          {
            key: 'status',
            id: 'driver-status-filter',
            label: 'Filter by verification',
            options: STATUS_OPTIONS,
          },
        ]}
      />
      <PagedList
        query={drivers}
        emptyText={
          list.filters.status === 'pending' ? 'No drivers are waiting for verification' : 'No drivers found'
        }
        what="drivers"
        onPageChange={list.setPage}
        isSearchPending={list.isSearchPending}
        showRange={false}
      >
        {(items) => (
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
            {items.map((driver) => (
              <DriverCard
                key={driver.id}
                driver={driver}
                isSelf={driver.id === adminId}
                onOpenImage={setImage}
              />
            ))}
          </div>
        )}
      </PagedList>
      <Dialog open={image !== null} onOpenChange={(open) => (open ? undefined : setImage(null))}>
        <DialogContent className="max-w-3xl">
          <DialogHeader>
            <DialogTitle>{image?.title}</DialogTitle>
            <DialogDescription>Only the driver and admins can see this image.</DialogDescription>
          </DialogHeader>
          {image ? (
            <img
              src={image.url}
              alt={image.title}
              className="max-h-[70dvh] w-full rounded-md object-contain"
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}
