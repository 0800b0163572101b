import { useId, useState, type ReactNode } from 'react';
import { Ban, RotateCw, ShieldCheck, UserMinus } from 'lucide-react';
import type { AdminOrder, AdminUserDetail } from '@domain/admin';
import { capitalise, displayName } from '@domain/roles';
import { REMOVABLE_ROLES, type ModeratedUser } from '@domain/users';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useAdminUser } from '../api/get-admin-user';
import { useRemoveUserRole, type RemovableRole } from '../api/remove-user-role';
import { useSetUserSuspended } from '../api/suspend-user';
import { OrderFlagBadge } from './order-flag-badge';
import { OrderStatusLabel } from './order-status-label';
import { RoleSelect } from './role-select';
import { formatCount } from '@domain/format-count';

const isRemovable = (role: string): role is RemovableRole =>
  (REMOVABLE_ROLES as readonly string[]).includes(role);

/** The payout account as stored, in the payout card's words (docs/rules/money.md, Payout accounts). */
function payoutText(payouts: AdminUserDetail['payouts']): string {
  if (payouts.stripeAccountStatus === null) return 'No account';
  if (!payouts.onboardingComplete) return 'Incomplete';
  const status = capitalise(payouts.stripeAccountStatus);
  return payouts.payoutsEnabled ? `${status}, payouts enabled` : `${status}, payouts not enabled`;
}

function documentsText(driver: AdminUserDetail['driver']): string {
  const onFile = [
    driver.hasVehicleImage ? 'vehicle' : null,
    driver.hasLicenseImage ? 'license' : null,
    driver.hasTrailerImage ? 'trailer' : null,
  ].filter((kind) => kind !== null);
  if (onFile.length === 0) return 'No documents on file';
  const last = onFile.pop();
  const kinds = onFile.length === 0 ? last : `${onFile.join(', ')} and ${last}`;
  return `${capitalise(kinds ?? '')} ${onFile.length === 0 ? 'image' : 'images'} on file`;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `user-detail-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 border-t pt-4">
      <h3 id={id} className="text-sm font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

const ordersText = (count: number) => `${formatCount(count)} ${count === 1 ? 'order' : 'orders'}`;

/** The newest orders of one of the user's parts (as buyer, seller or driver), and how many in all. */
function OrdersPart({ title, part }: { title: string; part: { count: number; latest: AdminOrder[] } }) {
  const headingId = useId();
  return (
    <section className="flex flex-col gap-2" aria-labelledby={headingId}>
      <h4 id={headingId} className="text-sm font-medium">
        {title} <span className="font-normal text-muted-foreground">· {ordersText(part.count)}</span>
      </h4>
      {part.latest.length === 0 ? null : (
        <ul className="flex flex-col gap-2" aria-label={`Orders ${title.toLowerCase()}`}>
          {part.latest.map((order) => (
            <li key={order.id} className="flex flex-col gap-1 rounded-md border p-2.5 text-sm">
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-mono font-semibold">{order.orderNumber}</span>
                <OrderStatusLabel status={order.status} />
                {order.flag ? <OrderFlagBadge flag={order.flag} /> : null}
                <span className="ml-auto tabular-nums">{formatPrice(order.total)}</span>
              </span>
              <span className="text-xs text-muted-foreground">
                {formatDateTime(order.createdAt)} · {order.buyerName} from {order.sellerName}
              </span>
            </li>
          ))}
        </ul>
      )}
      {part.count > part.latest.length ? (
        <p className="text-xs text-muted-foreground">
          The {part.latest.length} newest of {formatCount(part.count)}; search the Orders tab for the rest.
        </p>
      ) : null}
    </section>
  );
}

/** Take a role away, suspend or restore: every action says what happened or why it was refused. */
function useModeration(name: string, onModerated?: (user: ModeratedUser) => void) {
  const removeRole = useRemoveUserRole({
    onRemoved: (user, role) => {
      onModerated?.(user);
      toast({ title: 'Role removed', description: `${name} is no longer a ${role}.` });
    },
    onFailed: (error) => toastMutationError(error, 'Failed to remove role', { appendServerMessage: true }),
  });
  const suspension = useSetUserSuspended({
    onDone: (user) => {
      onModerated?.(user);
      toast(
        user.suspendedAt
          ? { title: 'User suspended', description: `${name} was signed out and cannot sign in.` }
          : { title: 'User restored', description: `${name} can sign in again.` },
      );
    },
    onFailed: (error, suspended) =>
      toastMutationError(error, suspended ? 'Failed to suspend user' : 'Failed to restore user', {
        appendServerMessage: true,
      }),
  });
  return { removeRole, suspension };
}

function UserDetail({
  user,
  isSelf,
  onModerated,
}: {
  user: AdminUserDetail;
  isSelf: boolean;
  onModerated?: (user: ModeratedUser) => void;
}) {
  const name = displayName(user);
  const { removeRole, suspension } = useModeration(name, onModerated);
  const [confirming, setConfirming] = useState(false);
  const isSuspended = user.suspendedAt !== null;
  const busy = removeRole.isPending || suspension.isPending;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        {isSuspended ? (
          <Badge variant="destructive">Suspended</Badge>
        ) : (
          <Badge variant="success">Active</Badge>
        )}
        {user.suspendedAt ? (
          <span className="text-xs text-muted-foreground">since {formatDateTime(user.suspendedAt)}</span>
        ) : null}
        {isSelf ? (
          <span className="text-xs text-muted-foreground">
            This is you: another admin changes your account.
          </span>
        ) : null}
      </div>

      <Section title="Roles">
        <ul className="flex flex-col gap-2" aria-label="Granted roles">
          {user.roles.map((role) => (
            <li key={role} className="flex min-h-9 flex-wrap items-center justify-between gap-2">
              <span className="text-sm">
                {capitalise(role)}
                {role === user.role ? <span className="text-muted-foreground"> (current)</span> : null}
              </span>
              {isRemovable(role) && !isSelf ? (
                <Button
                  variant="outline"
                  size="sm"
                  className="text-destructive hover:text-destructive"
                  disabled={busy}
                  onClick={() => removeRole.mutate({ userId: user.id, role })}
                >
                  <UserMinus aria-hidden="true" />
                  Remove {role} role
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
        {user.withheldRoles.length > 0 ? (
          <p className="text-xs text-muted-foreground">
            Taken away by an admin: {user.withheldRoles.map(capitalise).join(', ')}. The user cannot take{' '}
            {user.withheldRoles.length === 1 ? 'it' : 'them'} back without an admin.
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <RoleSelect user={user} isSelf={isSelf} />
          <p className="min-w-0 flex-1 basis-48 text-xs text-muted-foreground">
            Choosing a role grants it and makes it the current one.
          </p>
        </div>
      </Section>

      <Section title="Account">
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <Fact term="Joined">{formatDateTime(user.createdAt)}</Fact>
          <Fact term="Addresses">
            {user.addressCount === 1 ? '1 address' : `${user.addressCount} addresses`}
          </Fact>
          <Fact term="Driver verification">
            <span className="inline-flex items-center gap-1">
              {user.driver.isVerified ? (
                <ShieldCheck className="size-4 text-primary" aria-hidden="true" />
              ) : null}
              {user.driver.isVerified ? 'Verified' : 'Not verified'}
            </span>
            <span className="block text-xs text-muted-foreground">{documentsText(user.driver)}</span>
          </Fact>
          <Fact term="Payouts">{payoutText(user.payouts)}</Fact>
          {/* docs/decisions/0024-two-factor-sign-in.md */}
          <Fact term="Two-factor sign-in">
            <span data-testid="text-user-two-factor">{user.twoFactorEnabled ? 'On' : 'Off'}</span>
          </Fact>
        </dl>
        {isSelf ? null : (
          <div className="flex flex-col items-start gap-2">
            {isSuspended ? (
              <Button variant="outline" disabled={busy} onClick={() => setConfirming(true)}>
                <RotateCw aria-hidden="true" />
                Restore user
              </Button>
            ) : (
              <Button variant="destructive" disabled={busy} onClick={() => setConfirming(true)}>
                <Ban aria-hidden="true" />
                Suspend user
              </Button>
            )}
            <p className="text-xs text-muted-foreground">
              {isSuspended
                ? 'Restoring lets them sign in again; their listings come back if they still sell.'
                : 'Suspending signs them out everywhere, refuses their sign-in and hides their listings. Their orders stay.'}
            </p>
          </div>
        )}
      </Section>

      <Section title="Orders">
        <OrdersPart title="As buyer" part={user.orders.asBuyer} />
        <OrdersPart title="As seller" part={user.orders.asSeller} />
        <OrdersPart title="As driver" part={user.orders.asDriver} />
      </Section>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={isSuspended ? 'Restore this user?' : 'Suspend this user?'}
        description={
          isSuspended
            ? `${name} (${user.email}) will be able to sign in again, and their listings return to the catalog if they hold the seller role.`
            : `${name} (${user.email}) will be signed out at once and cannot sign in; their listings leave the catalog. Their orders stay, and the open ones are flagged. You can restore them later.`
        }
        cancelLabel="Cancel"
        confirmLabel={isSuspended ? 'Restore user' : 'Suspend user'}
        pendingLabel={isSuspended ? 'Restoring...' : 'Suspending...'}
        isPending={suspension.isPending}
        onConfirm={() =>
          suspension.mutate(
            { userId: user.id, suspended: !isSuspended },
            { onSettled: () => setConfirming(false) },
          )
        }
      />
    </div>
  );
}

/**
 * A user's details (docs/rules/screens-work.md, Admin screens): their roles, each removable but buyer,
 * and the role select; Suspend or Restore after a confirmation; driver verification, payout
 * account, addresses, and their newest orders as buyer, seller and driver.
 */
export function UserDetailDialog({
  userId,
  adminId,
  onClose,
  onModerated,
}: {
  userId: string | null;
  adminId: string;
  onClose: () => void;
  /** What the server answered about the user after a role was taken away, or a suspension. */
  onModerated?: (user: ModeratedUser) => void;
}) {
  // The details stay while the dialog animates closed.
  const [shownId, setShownId] = useState(userId);
  if (userId !== null && userId !== shownId) setShownId(userId);
  const user = useAdminUser(shownId);
  const data = user.data?.id === shownId ? user.data : undefined;

  return (
    <Dialog open={userId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{data ? displayName(data) : 'User details'}</DialogTitle>
          <DialogDescription className="break-all">{data ? data.email : 'Loading...'}</DialogDescription>
        </DialogHeader>
        {data ? (
          <UserDetail key={data.id} user={data} isSelf={data.id === adminId} onModerated={onModerated} />
        ) : user.isError ? (
          <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
            <span>This user could not be loaded.</span>
            <Button variant="outline" size="sm" onClick={() => void user.refetch()}>
              <RotateCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : (
          <p role="status" className="py-6 text-center text-sm text-muted-foreground">
            Loading user...
          </p>
        )}
      </DialogContent>
    </Dialog>
  );
}
