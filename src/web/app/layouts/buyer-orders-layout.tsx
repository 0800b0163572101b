import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ArrowLeft, CalendarClock, LogOut } from 'lucide-react';
import { ThemeToggle } from '../../components/theme-toggle';
import { Button } from '../../components/ui/button';
import { WithTooltip } from '../../components/ui/tooltip';
import { signOut } from '../../lib/navigation';
import { useSignedInUser } from '../../lib/use-auth';
import { RoleSwitcher } from '../../features/users/components/role-switcher';
import { UnreadMessagesMenu } from '../../features/messages/components/unread-messages-menu';
import { SiteFooter } from './site-footer';
import { SkipLink } from './skip-link';

/**
 * My Orders has its own header (docs/rules/screens-buyer.md, Order screens): back to /, the role
 * switcher, a link to /availability, logout and the theme control, and like every signed-in header
 * the unread-message count (docs/rules/selling.md, Reviews and messages).
 */
export function BuyerOrdersLayout({ children }: { children: ReactNode }) {
  const user = useSignedInUser();
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
          <Button asChild variant="ghost" size="sm" className="px-2 sm:px-3">
            <Link href="/" aria-label="Back to home">
              <ArrowLeft aria-hidden="true" />
              <span className="hidden sm:inline">Back</span>
            </Link>
          </Button>
          <RoleSwitcher user={user} />
          <div className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1">
            <WithTooltip label="Availability">
              <Button asChild variant="ghost" size="sm" className="px-2 sm:px-3">
                <Link href="/availability" aria-label="Availability">
                  <CalendarClock aria-hidden="true" />
                  <span className="hidden sm:inline">Availability</span>
                </Link>
              </Button>
            </WithTooltip>
            <UnreadMessagesMenu />
            <ThemeToggle />
            <WithTooltip label="Log out">
              <Button variant="ghost" size="icon" onClick={signOut} aria-label="Log out">
                <LogOut aria-hidden="true" />
              </Button>
            </WithTooltip>
          </div>
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 focus:outline-none sm:px-6 sm:py-10"
      >
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
