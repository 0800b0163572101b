import { LoaderCircle } from 'lucide-react';

/** A centred spinner with a text that screen readers announce. */
export function PageLoading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div
      role="status"
      className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-muted-foreground"
    >
      <LoaderCircle className="size-8 animate-spin" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
