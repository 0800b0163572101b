import { BadgeCheck, CalendarDays } from 'lucide-react';
import { capitalise, displayName } from '@domain/roles';
import { Badge } from '../../../components/ui/badge';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { formatMonthYear } from '../../../lib/format';
import { UserAvatar } from '../../../components/user-avatar';
import { UserReviewsList } from '../../reviews/components/user-reviews-list';
import { usePublicUser } from '../api/get-party';

/** In the marketplace time zone, like every date (docs/rules/running.md, Dates and times). */
function memberSince(iso: string): string {
  return formatMonthYear(iso) ?? '';
}

/**
 * Any party's profile opens from the order view (GET /api/users/{id};
 * docs/rules/screens-buyer.md, Order screens), with that user's reviews (GET /api/reviews/user/{id}).
 */
export function UserProfileDialog({ userId, onClose }: { userId: string | null; onClose: () => void }) {
  const profile = usePublicUser(userId);
  const user = profile.data;

  return (
    <Dialog open={userId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="dialog-user-profile">
        <DialogHeader>
          <DialogTitle>{user ? displayName(user) : 'User profile'}</DialogTitle>
          <DialogDescription>
            {user ? capitalise(user.role) : 'Profile of a party of this order'}
          </DialogDescription>
        </DialogHeader>
        {profile.isLoading ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading profile...
          </p>
        ) : profile.isError || !user ? (
          <p role="alert" className="text-sm text-destructive">
            This profile could not be loaded.
          </p>
        ) : (
          <div className="flex items-center gap-4">
            <UserAvatar
              user={{ ...user, email: capitalise(user.role) }}
              className="size-16 text-xl"
              data-testid="img-profile-avatar"
            />
            <div className="flex flex-col gap-1.5 text-sm">
              {user.isVerified ? (
                <Badge variant="success" className="w-fit">
                  <BadgeCheck aria-hidden="true" />
                  Verified
                </Badge>
              ) : null}
              <p className="flex items-center gap-1.5 text-muted-foreground">
                <CalendarDays className="size-4" aria-hidden="true" />
                Member since {memberSince(user.createdAt)}
              </p>
            </div>
          </div>
        )}
        {userId !== null && !profile.isError ? <UserReviewsList userId={userId} /> : null}
      </DialogContent>
    </Dialog>
  );
}
