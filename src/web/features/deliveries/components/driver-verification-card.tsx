import { useId, useState, type ReactNode } from 'react';
import { BadgeCheck, Car, CircleCheck, CircleDashed, Clock, IdCard, Truck } from 'lucide-react';
import { driverVerificationOf, type VerificationStep } from '@domain/deliveries';
import type { CurrentUser } from '@domain/users';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { cn } from '../../../lib/utils';
import { useSaveDriverImage, type DriverImageKind } from '../api/save-driver-image';

/** What a missing step asks of the driver. */
export function verificationStepText(step: VerificationStep): string {
  if (step === 'admin approval') return "an admin's approval";
  return `a ${step}`;
}

/** "a vehicle image, a license image and an admin's approval". */
export function missingStepsText(steps: readonly VerificationStep[]): string {
  const words = steps.map(verificationStepText);
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`;
}

/** The uploader is another feature's: the page passes it in (CONTRIBUTING.md, Code layout rules). */
export type DriverImageUploader = (props: {
  kind: DriverImageKind;
  /** The button's text. */
  label: string;
  /** The uploaded file's object path. */
  onUploaded: (objectPath: string) => void;
  disabled: boolean;
}) => ReactNode;

const IMAGES: {
  kind: DriverImageKind;
  title: string;
  field: 'vehicleImageUrl' | 'licenseImageUrl' | 'trailerImageUrl';
  icon: typeof Car;
  hint: string;
}[] = [
  { kind: 'vehicle', title: 'Vehicle', field: 'vehicleImageUrl', icon: Car, hint: 'Required' },
  { kind: 'license', title: 'License', field: 'licenseImageUrl', icon: IdCard, hint: 'Required' },
  { kind: 'trailer', title: 'Trailer', field: 'trailerImageUrl', icon: Truck, hint: 'Optional' },
];

/** The spec's failure toasts (docs/rules/deliveries.md, Deliveries). */
const SAVE_FAILED: Record<DriverImageKind, string> = {
  vehicle: 'Failed to save vehicle image',
  license: 'Failed to save license image',
  trailer: 'Failed to save trailer image',
};

function ImageTile({
  user,
  image,
  uploader,
}: {
  user: CurrentUser;
  image: (typeof IMAGES)[number];
  uploader: DriverImageUploader;
}) {
  const save = useSaveDriverImage();
  const url = user[image.field];
  const Icon = image.icon;
  return (
    <li className="flex min-w-0 flex-col gap-2">
      <div className="relative aspect-square overflow-hidden rounded-lg border bg-muted">
        {url ? (
          <img src={url} alt={`Your ${image.title.toLowerCase()} image`} className="size-full object-cover" />
        ) : (
          <div className="flex size-full flex-col items-center justify-center gap-1 text-muted-foreground">
            <Icon className="size-6" aria-hidden="true" />
            <span className="text-xs">No image</span>
          </div>
        )}
        {url ? (
          <CircleCheck
            className="absolute right-1.5 top-1.5 size-5 rounded-full bg-background text-emerald-600 dark:text-emerald-400"
            aria-hidden="true"
          />
        ) : null}
      </div>
      <div className="flex flex-col">
        <span className="text-sm font-medium">{image.title}</span>
        <span className="text-xs text-muted-foreground">{image.hint}</span>
      </div>
      {uploader({
        kind: image.kind,
        label: save.isPending ? 'Saving...' : url ? 'Replace' : 'Upload',
        disabled: save.isPending,
        onUploaded: (objectPath) =>
          save.mutate(
            { kind: image.kind, imageUrl: objectPath },
            {
              onSuccess: () => toast({ title: `${image.title} image saved` }),
              onError: (error) => toastMutationError(error, SAVE_FAILED[image.kind]),
            },
          ),
      })}
    </li>
  );
}

function Step({ done, text, testId }: { done: boolean; text: string; testId: string }) {
  return (
    <li className="flex items-center gap-2 text-sm" data-testid={testId} data-done={done}>
      {done ? (
        <CircleCheck className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <CircleDashed className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      )}
      <span className={cn(!done && 'text-muted-foreground')}>
        {text}
        <span className="sr-only">{done ? ' (done)' : ' (to do)'}</span>
      </span>
    </li>
  );
}

/**
 * The driver verification card (docs/rules/deliveries.md, Deliveries): the vehicle, license and
 * trailer images with their uploaders, and the state: Verified once both the vehicle and the
 * license image are on file and an admin approved, pending otherwise. Verified drivers see it
 * folded, so the orders stay near the top of a phone's screen.
 */
export function DriverVerificationCard({
  user,
  uploader,
}: {
  user: CurrentUser;
  uploader: DriverImageUploader;
}) {
  const { isVerified, missing } = driverVerificationOf(user);
  const [showImages, setShowImages] = useState(false);
  // Both forms of the card are a region named by its title.
  const titleId = useId();
  const images = (
    <ul className="grid grid-cols-3 gap-3" aria-label="Your driver images">
      {IMAGES.map((image) => (
        <ImageTile key={image.kind} user={user} image={image} uploader={uploader} />
      ))}
    </ul>
  );
  const badge = isVerified ? (
    <Badge variant="success">
      <BadgeCheck aria-hidden="true" />
      Verified
    </Badge>
  ) : (
    <Badge variant="warning">
      <Clock aria-hidden="true" />
      Pending verification
    </Badge>
  );

  if (isVerified) {
    // The images and their uploaders are made when the driver opens the card, not with the page
    // (docs/rules/screens-work.md, Driver dashboard: uploaders on demand).
    return (
      <Card role="region" aria-labelledby={titleId}>
        <details className="group" onToggle={(event) => setShowImages(event.currentTarget.open)}>
          <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl p-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
            <span className="flex min-w-0 flex-col">
              <span id={titleId} className="font-semibold">
                Driver Verification
              </span>
              <span className="text-xs text-muted-foreground">
                <span className="group-open:hidden">Show your images</span>
                <span className="hidden group-open:inline">Hide your images</span>
              </span>
            </span>
            {badge}
          </summary>
          <div className="px-4 pb-4">{showImages ? images : null}</div>
        </details>
      </Card>
    );
  }

  const hasImages = !missing.includes('vehicle image') && !missing.includes('license image');
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 p-4 sm:p-6">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle as="h2" id={titleId}>
            Driver Verification
          </CardTitle>
          <CardDescription>
            {hasImages
              ? 'Thanks! An admin checks your images and approves your account.'
              : 'Upload a photo of your vehicle and of your license. An admin then approves your account.'}{' '}
            A trailer image opens trailer orders to you.
          </CardDescription>
        </div>
        {badge}
      </CardHeader>
      <CardContent className="flex flex-col gap-4 p-4 pt-0 sm:p-6 sm:pt-0">
        <ol className="flex flex-col gap-1.5" aria-label="Verification steps">
          <Step
            done={!missing.includes('vehicle image')}
            text="Vehicle image uploaded"
            testId="step-vehicle"
          />
          <Step
            done={!missing.includes('license image')}
            text="License image uploaded"
            testId="step-license"
          />
          <Step
            done={!missing.includes('admin approval')}
            text="Approved by an admin"
            testId="step-approval"
          />
        </ol>
        {images}
      </CardContent>
    </Card>
  );
}
