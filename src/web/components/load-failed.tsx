import { RotateCw } from 'lucide-react';
import { cn } from '../lib/utils';
import { Button } from './ui/button';

/** A part of a page whose data could not be read: what failed, and Try Again. */
export function LoadFailed({
  message,
  onRetry,
  isRetrying,
  className,
}: {
  message: string;
  onRetry: () => void;
  isRetrying: boolean;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn('flex flex-col items-start gap-3 rounded-lg border p-4 text-sm', className)}
    >
      <span>{message}</span>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={isRetrying}>
        <RotateCw aria-hidden="true" />
        Try Again
      </Button>
    </div>
  );
}
