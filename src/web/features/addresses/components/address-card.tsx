import { useId } from 'react';
import { BadgeCheck, MapPin, Pencil, Star, Trash2 } from 'lucide-react';
import type { Address } from '@domain/addresses';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatCityLine } from './format-address';

/** One saved address with its badges and actions (docs/rules/screens-buyer.md, Account pages). */
export function AddressCard({
  address,
  onEdit,
  onSetPrimary,
  onDelete,
  isSettingPrimary,
}: {
  address: Address;
  onEdit: () => void;
  onSetPrimary: () => void;
  onDelete: () => void;
  isSettingPrimary: boolean;
}) {
  // Several cards show the same button texts; the accessible names say which address (and keep
  // the visible text first, so voice control by the visible label still works).
  const which = ` ${address.addressLine1}`;
  const lineId = useId();
  return (
    // A region named by its first line, so each address can be reached and told apart.
    <Card className="flex h-full flex-col gap-4 p-5" role="region" aria-labelledby={lineId}>
      <div className="flex items-start gap-3">
        <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground">
          <MapPin className="size-4" aria-hidden="true" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-wrap items-center gap-2">
            {address.isPrimary ? <Badge>Primary</Badge> : null}
            {address.isVerified ? (
              <Badge variant="success">
                <BadgeCheck aria-hidden="true" />
                Verified
              </Badge>
            ) : null}
          </div>
          <address className="break-words not-italic">
            <span id={lineId} className="block font-medium">
              {address.addressLine1}
            </span>
            {address.addressLine2 ? (
              <span className="block text-sm text-muted-foreground">{address.addressLine2}</span>
            ) : null}
            <span className="block text-sm text-muted-foreground">{formatCityLine(address)}</span>
          </address>
        </div>
      </div>
      <div className="mt-auto flex flex-wrap gap-2 border-t pt-4">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit${which}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        {address.isPrimary ? null : (
          <Button
            variant="outline"
            size="sm"
            onClick={onSetPrimary}
            disabled={isSettingPrimary}
            aria-label={`Set as Primary${which}`}
          >
            <Star aria-hidden="true" />
            Set as Primary
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          onClick={onDelete}
          className="text-destructive hover:bg-destructive/10 hover:text-destructive"
          aria-label={`Delete${which}`}
        >
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </Card>
  );
}
