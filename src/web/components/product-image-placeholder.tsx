import { cn } from '../lib/utils';

/**
 * Shown when a product has no image or its image fails to load (docs/rules/screens-shared.md, Client
 * behaviour). An inline SVG, so it never needs a request of its own and follows the theme's colours.
 */
export function ProductImagePlaceholder({ className, label }: { className?: string; label: string }) {
  return (
    <svg
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      viewBox="0 0 160 120"
      preserveAspectRatio="xMidYMid slice"
      className={cn('size-full bg-muted text-muted-foreground', className)}
    >
      <rect width="160" height="120" fill="currentColor" opacity="0.06" />
      <g
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinejoin="round"
        strokeLinecap="round"
        opacity="0.55"
      >
        <path d="M58 48 80 38l22 10v26L80 84 58 74Z" />
        <path d="m58 48 22 10 22-10M80 58v26" />
        <path d="m69 43 22 10" />
      </g>
    </svg>
  );
}
