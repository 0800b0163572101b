import { lazy } from 'react';
import { Link, useLocation } from 'wouter';
import { LogOut, MapPin, Menu, UserRound } from 'lucide-react';
import { displayName, headerLinksFor } from '@domain/roles';
import type { CurrentUser } from '@domain/users';
import { BrandLink } from '../../components/brand';
import { OptionalPart } from '../../components/error-boundary';
import { ThemeToggle } from '../../components/theme-toggle';
import { Button } from '../../components/ui/button';
import { deferredControl } from '../../components/deferred-control';
import { WithTooltip } from '../../components/ui/tooltip';
import { UserAvatar } from '../../components/user-avatar';
import { signOut } from '../../lib/navigation';
import { useHasHydrated } from '../../lib/use-has-hydrated';
import { cn } from '../../lib/utils';
import { CartSheet } from '../../features/cart/components/cart-sheet';
import { RoleSwitcher } from '../../features/users/components/role-switcher';

/** The menu (Radix) is not part of the first load (docs/decisions/0014-first-load.md). */
const AppHeaderMenu = deferredControl(async () => (await import('./app-header-menu')).AppHeaderMenu);

/** The unread-message count (docs/rules/selling.md, Reviews and messages), outside the first load. */
const UnreadMessagesMenu = lazy(async () => ({
  default: (await import('../../features/messages/components/unread-messages-menu')).UnreadMessagesMenu,
}));

function isCurrent(location: string, href: string): boolean {
  return location === href || location.startsWith(`${href}/`);
}

/**
 * The signed-in header (docs/rules/screens-buyer.md, Routes and headers). At phone width the role links,
 * profile, addresses and logout move into a menu; with several role links (admin) the links stay in
 * the menu up to the xl breakpoint so nothing overflows.
 */
export function AppHeader({ user }: { user: CurrentUser }) {
  const [location] = useLocation();
  const links = headerLinksFor(user.role);
  const manyLinks = links.length > 1;
  // The unread count loads after the first screen, not in the server's HTML
  // (docs/decisions/0014-first-load.md, The first screen in the HTML).
  const hasHydrated = useHasHydrated();

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
        {/* With every role link shown (xl, admins) the name keeps to one line; they all fit beside it. */}
        <BrandLink hideNameOnPhone className={cn('mr-1', manyLinks && 'xl:shrink-0 xl:whitespace-nowrap')} />
        <RoleSwitcher user={user} />

        {links.length > 0 ? (
          <nav
            aria-label="Main"
            className={cn('items-center gap-1', manyLinks ? 'hidden xl:flex' : 'hidden md:flex')}
          >
            {links.map((link) => {
              const current = isCurrent(location, link.href);
              return (
                <Button
                  key={link.href}
                  asChild
                  variant="ghost"
                  size="sm"
                  // Four links beside the name and the icons fit at 1280 px only this narrow.
                  className={cn(manyLinks && 'px-2', current && 'bg-accent text-accent-foreground')}
                >
                  <Link href={link.href} aria-current={current ? 'page' : undefined}>
                    {link.label}
                  </Link>
                </Button>
              );
            })}
          </nav>
        ) : null}

        <div className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1">
          {/* The header names who is signed in on the profile link (its tooltip and accessible name). */}
          <WithTooltip label={displayName(user)}>
            <Button asChild variant="ghost" size="icon" className="hidden md:inline-flex">
              <Link href="/profile" aria-label={`Profile: ${displayName(user)}`}>
                {user.profileImageUrl ? (
                  <UserAvatar user={user} alt="" className="size-8" />
                ) : (
                  <UserRound aria-hidden="true" />
                )}
              </Link>
            </Button>
          </WithTooltip>
          <WithTooltip label="My addresses">
            <Button asChild variant="ghost" size="icon" className="hidden md:inline-flex">
              <Link href="/addresses" aria-label="My addresses">
                <MapPin aria-hidden="true" />
              </Link>
            </Button>
          </WithTooltip>
          {hasHydrated ? (
            <OptionalPart>
              <UnreadMessagesMenu />
            </OptionalPart>
          ) : null}
          <CartSheet />
          <ThemeToggle />
          <WithTooltip label="Log out">
            <Button
              variant="ghost"
              size="icon"
              className="hidden md:inline-flex"
              onClick={signOut}
              aria-label="Log out"
            >
              <LogOut aria-hidden="true" />
            </Button>
          </WithTooltip>

          <AppHeaderMenu
            user={user}
            links={links}
            trigger={
              <Button
                variant="ghost"
                size="icon"
                className={manyLinks ? 'xl:hidden' : 'md:hidden'}
                aria-label="Open menu"
              >
                <Menu aria-hidden="true" />
              </Button>
            }
          />
        </div>
      </div>
    </header>
  );
}
