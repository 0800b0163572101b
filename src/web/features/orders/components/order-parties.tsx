import { ChevronRight } from 'lucide-react';
import { capitalise, displayName } from '@domain/roles';
import { fulfilmentOf } from '@domain/order-status';
import type { Order } from '@domain/orders';
import { UserAvatar } from '../../../components/user-avatar';
import { usePublicUser } from '../api/get-party';

type PartyRole = 'buyer' | 'seller' | 'driver';

function PartyRow({
  role,
  userId,
  isYou,
  onOpen,
}: {
  role: PartyRole;
  userId: string;
  isYou: boolean;
  onOpen: (userId: string) => void;
}) {
  const profile = usePublicUser(userId);
  const user = profile.data;
  const roleWord = capitalise(role);
  if (profile.isError) {
    return (
      <li className="flex items-center justify-between gap-3 py-2">
        <span className="text-sm text-muted-foreground">{roleWord}</span>
        <span role="alert" className="text-sm text-destructive">
          Failed to load {role} information
        </span>
      </li>
    );
  }
  // Display name: "first last", otherwise the capitalised role word of this order
  // (docs/rules/screens-shared.md, Client behaviour).
  const name = user ? displayName({ ...user, role }) : 'Loading...';
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(userId)}
        disabled={!user}
        className="-mx-2 flex w-[calc(100%+1rem)] items-center gap-3 rounded-md px-2 py-2 text-left transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-default"
      >
        {user ? (
          <UserAvatar user={{ ...user, email: roleWord }} className="size-9 text-sm" />
        ) : (
          <span className="size-9 shrink-0 animate-pulse rounded-full bg-muted" aria-hidden="true" />
        )}
        <span className="flex min-w-0 flex-1 flex-col">
          {/* The button's name is its visible text with words around it ("View profile of Bailey
              Buyer, Buyer"), so a voice command saying what is on screen finds it. */}
          <span className="truncate text-sm font-medium">
            {user ? <span className="sr-only">View profile of </span> : null}
            {name}
            {isYou ? <span className="font-normal text-muted-foreground"> (you)</span> : null}
            <span className="sr-only">{', '}</span>
          </span>
          <span className="text-xs text-muted-foreground">{roleWord}</span>
        </span>
        <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
      </button>
    </li>
  );
}

/**
 * The people of the order (buyer, seller, driver), each opening their profile
 * (docs/rules/screens-buyer.md, Order screens).
 */
export function OrderParties({
  order,
  viewerId,
  onOpenProfile,
}: {
  order: Order;
  viewerId: string;
  onOpenProfile: (userId: string) => void;
}) {
  const usesDriver = fulfilmentOf(order) === 'driver';
  return (
    <ul className="flex flex-col">
      <PartyRow
        role="buyer"
        userId={order.buyerId}
        isYou={order.buyerId === viewerId}
        onOpen={onOpenProfile}
      />
      <PartyRow
        role="seller"
        userId={order.sellerId}
        isYou={order.sellerId === viewerId}
        onOpen={onOpenProfile}
      />
      {order.driverId ? (
        <PartyRow
          role="driver"
          userId={order.driverId}
          isYou={order.driverId === viewerId}
          onOpen={onOpenProfile}
        />
      ) : usesDriver && order.status !== 'cancelled' ? (
        <li className="flex items-center justify-between gap-3 py-2 text-sm">
          <span className="text-muted-foreground">Driver</span>
          <span className="text-muted-foreground">Not assigned yet</span>
        </li>
      ) : null}
    </ul>
  );
}
