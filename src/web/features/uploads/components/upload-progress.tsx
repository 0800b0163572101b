import { cn } from '../../../lib/utils';

export interface UploadProgressProps {
  /** Whole percent, 0 to 100. */
  value: number;
  /** What is being uploaded, for screen readers ("Uploading profile photo"). */
  label: string;
  className?: string;
}

/**
 * A progress bar with its percentage; the value changes at most every 500 ms
 * (docs/rules/screens-shared.md, Uploader).
 */
export function UploadProgress({ value, label, className }: UploadProgressProps) {
  const percent = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <div className={cn('flex items-center gap-3', className)} data-testid="upload-progress">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 min-w-0 flex-1 overflow-hidden rounded-full bg-secondary"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-300 ease-out motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
      <span
        className="w-11 shrink-0 text-right text-sm tabular-nums text-muted-foreground"
        aria-hidden="true"
      >
        {percent}%
      </span>
    </div>
  );
}
