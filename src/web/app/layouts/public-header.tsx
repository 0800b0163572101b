import { LogIn } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import { BrandLink } from '../../components/brand';
import { ThemeToggle } from '../../components/theme-toggle';
import { Button } from '../../components/ui/button';
import { CartSheet } from '../../features/cart/components/cart-sheet';
import { VisitorRoleSwitcher } from '../../features/users/components/visitor-role-switcher';
import { signIn } from '../../lib/navigation';

/**
 * Header for visitors (docs/rules/screens-buyer.md, Routes and headers): the product name, the role switcher
 * (buyer, seller, driver: each signs in as that role), the theme toggle, Sign In, and the cart, which a
 * visitor fills too (checking out asks them to sign in). Signing in from a page comes back to that page.
 */
export function PublicHeader() {
  const [location] = useLocation();
  const search = useSearch();
  const returnTo = location === '/' ? undefined : `${location}${search ? `?${search}` : ''}`;
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
        <BrandLink hideNameOnPhone />
        <div className="flex shrink-0 items-center gap-1 sm:gap-2">
          <VisitorRoleSwitcher returnTo={returnTo} />
          <ThemeToggle />
          <CartSheet />
          <Button onClick={() => signIn({ returnTo })}>
            <LogIn aria-hidden="true" />
            Sign In
          </Button>
        </div>
      </div>
    </header>
  );
}
