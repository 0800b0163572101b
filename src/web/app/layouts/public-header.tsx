import { LogIn } from 'lucide-react';
import { BrandLink } from '../../components/brand';
import { ThemeToggle } from '../../components/theme-toggle';
import { Button } from '../../components/ui/button';
import { signIn } from '../../lib/navigation';

/** Header for visitors (spec buyer §2 Landing): the product name, Sign In and the theme toggle. */
export function PublicHeader() {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
        <BrandLink />
        <div className="flex shrink-0 items-center gap-1 sm:gap-2">
          <ThemeToggle />
          <Button onClick={() => signIn()} data-testid="button-sign-in">
            <LogIn aria-hidden="true" />
            Sign In
          </Button>
        </div>
      </div>
    </header>
  );
}
