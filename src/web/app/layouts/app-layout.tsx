import type { ReactNode } from 'react';
import { useSignedInUser } from '../../lib/use-auth';
import { cn } from '../../lib/utils';
import { AppHeader } from './app-header';
import { SiteFooter } from './site-footer';
import { SkipLink } from './skip-link';

/** Every signed-in page: the app header, one <main>, the footer. */
export function AppLayout({ children, contained = true }: { children: ReactNode; contained?: boolean }) {
  const user = useSignedInUser();
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <AppHeader user={user} />
      <main
        id="main"
        tabIndex={-1}
        className={cn(
          'flex-1 focus:outline-none',
          contained && 'mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 sm:py-10',
        )}
      >
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
