import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { cn } from '../../../lib/utils';
import type { UploadNotice } from '../image-uploader';

export interface UploadNoticesProps {
  notices: readonly UploadNotice[];
  onDismiss: (id: number) => void;
  className?: string;
}

/**
 * The uploader's messages (docs/rules/screens-shared.md, Uploader), each gone after its time-out. The live
 * region is always in the page, empty or not, so that screen readers announce what is added to it.
 */
export function UploadNotices({ notices, onDismiss, className }: UploadNoticesProps) {
  return (
    <div role="status" aria-live="polite" className={className}>
      {notices.length > 0 ? (
        <ul className="flex flex-col gap-2" data-testid="upload-notices">
          {notices.map((notice) => {
            const Icon = notice.tone === 'error' ? CircleAlert : CircleCheck;
            return (
              <li
                key={notice.id}
                className={cn(
                  'flex items-start gap-2 rounded-md border px-3 py-2 text-sm',
                  notice.tone === 'error'
                    ? 'border-destructive/40 text-destructive'
                    : 'border-success-foreground/30 bg-success text-success-foreground',
                )}
                data-testid={`upload-notice-${notice.tone}`}
              >
                <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{notice.message}</p>
                  {notice.details ? <p className="break-words opacity-90">{notice.details}</p> : null}
                </div>
                <button
                  type="button"
                  onClick={() => onDismiss(notice.id)}
                  className="-m-1 rounded-sm p-1 opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  aria-label="Dismiss message"
                >
                  <X aria-hidden="true" className="size-4" />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
