import { ChevronDown, UserRound } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { deferredControl } from '../../../components/deferred-control';
import { signIn } from '../../../lib/navigation';
import type { VisitorRoleChoice } from './visitor-role-choices';

/** The dropdown (Radix) is not part of the first load (docs/decisions/0014-first-load.md). */
const VisitorRoleMenu = deferredControl(async () => (await import('./visitor-role-menu')).VisitorRoleMenu);

/**
 * The visitor's role switcher (docs/rules/screens-buyer.md, Routes and headers): buyer, seller and
 * driver. Choosing buyer signs in and comes back to this page; seller or driver signs in (or up)
 * with that role added, and lands on its dashboard.
 */
export function VisitorRoleSwitcher({ returnTo }: { returnTo: string | undefined }) {
  const choose = ({ role }: VisitorRoleChoice) => signIn(role === 'buyer' ? { returnTo } : { intent: role });
  return (
    <VisitorRoleMenu
      onChoose={choose}
      trigger={
        <Button variant="outline" size="sm" aria-label="Roles: sign in as a buyer, seller or driver">
          <UserRound aria-hidden="true" />
          <span className="hidden sm:inline">Roles</span>
          <ChevronDown aria-hidden="true" className="opacity-60" />
        </Button>
      }
    />
  );
}
