import { Link } from 'wouter';
import { LogOut, MapPin, UserRound } from 'lucide-react';
import type { RoleLink } from '@domain/roles';
import type { CurrentUser } from '@domain/users';
import type { DeferredControlProps } from '../../components/deferred-control';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { UserAvatar } from '../../components/user-avatar';
import { signOut } from '../../lib/navigation';

/**
 * The signed-in header's menu (docs/rules/screens-buyer.md, Routes and headers): the role links, and at
 * phone width the profile, addresses and logout. Loaded after the first render (app-header.tsx).
 */
export function AppHeaderMenu({
  trigger,
  defaultOpen,
  user,
  links,
}: DeferredControlProps & { user: CurrentUser; links: RoleLink[] }) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        {links.length > 0 ? (
          <>
            <DropdownMenuLabel>Go to</DropdownMenuLabel>
            {links.map((link) => (
              <DropdownMenuItem key={link.href} asChild>
                <Link href={link.href}>{link.label}</Link>
              </DropdownMenuItem>
            ))}
            <DropdownMenuSeparator className="md:hidden" />
          </>
        ) : null}
        <DropdownMenuItem asChild className="md:hidden">
          <Link href="/profile">
            {user.profileImageUrl ? (
              <UserAvatar user={user} className="size-5" />
            ) : (
              <UserRound aria-hidden="true" />
            )}
            Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild className="md:hidden">
          <Link href="/addresses">
            <MapPin aria-hidden="true" />
            My Addresses
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator className="md:hidden" />
        <DropdownMenuItem className="md:hidden" onSelect={signOut}>
          <LogOut aria-hidden="true" />
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
