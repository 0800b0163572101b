import { lazy } from 'react';
import type { CurrentUser } from '@domain/users';
import { Suspense } from '../../../components/suspense';

const Card = lazy(() =>
  import('./notifications-card').then((module) => ({ default: module.NotificationsCard })),
);

/** The Notifications card, loaded when the profile shows it (its push code is nobody else's). */
export function LazyNotificationsCard({ user }: { user: CurrentUser }) {
  return (
    <Suspense fallback={null}>
      <Card user={user} />
    </Suspense>
  );
}
