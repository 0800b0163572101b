import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';
import { PublicHeader } from './public-header';
import { SiteFooter } from './site-footer';
import { SkipLink } from './skip-link';

/** Pages a visitor sees: the landing header, one <main>, the footer. */
export function PublicLayout({ children, contained = true }: { children: ReactNode; contained?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <PublicHeader />
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
