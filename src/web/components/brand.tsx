import { Link } from 'wouter';
import { Truck } from 'lucide-react';
import { COMPANY } from '@domain/company';
import { cn } from '../lib/utils';

/** The product's name as shown in headers and the footer. */
export const PRODUCT_NAME = COMPANY.name;

export function BrandMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground',
        className,
      )}
    >
      <Truck className="size-5" />
    </span>
  );
}

/**
 * The name, linking home. With `hideNameOnPhone` only the mark shows below the sm breakpoint
 * (the link keeps its accessible name).
 */
export function BrandLink({
  hideNameOnPhone = false,
  smallNameOnPhone = false,
  className,
}: {
  hideNameOnPhone?: boolean;
  /** A smaller name below the sm breakpoint, for a header with several buttons beside it. */
  smallNameOnPhone?: boolean;
  className?: string;
}) {
  return (
    <Link
      href="/"
      aria-label={hideNameOnPhone ? `${PRODUCT_NAME}, home` : undefined}
      className={cn(
        'flex min-w-0 items-center gap-2 rounded-md font-semibold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      <BrandMark />
      <span
        className={cn(
          'text-base leading-tight sm:text-lg',
          hideNameOnPhone && 'hidden sm:inline',
          smallNameOnPhone && 'text-sm',
        )}
      >
        {PRODUCT_NAME}
      </span>
    </Link>
  );
}
