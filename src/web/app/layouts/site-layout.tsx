import type { ReactNode } from 'react';
import { useAuth } from '../../lib/use-auth';
import { AppLayout } from './app-layout';
import { PublicLayout } from './public-layout';

/**
 * Pages both a visitor and a signed-in user see (a product, the catalog, the cart): the app's
 * header when signed in, the visitor's header (with Sign In and the cart) otherwise
 * (docs/rules/screens-buyer.md, Routes and headers).
 */
export function SiteLayout({ children, contained = true }: { children: ReactNode; contained?: boolean }) {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? (
    <AppLayout contained={contained}>{children}</AppLayout>
  ) : (
    <PublicLayout contained={contained}>{children}</PublicLayout>
  );
}
