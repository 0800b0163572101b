import { useEffect, useRef } from 'react';
import { ArrowLeft, ArrowRight, ImagePlus, LoaderCircle, X } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { useImageUpload } from '../use-image-upload';
import { UploadNotices } from './upload-notices';
import { UploadProgress } from './upload-progress';

export interface ImageListEditorProps {
  /** Object paths in order; the first is the primary image. */
  value: readonly string[];
  onChange: (next: string[]) => void;
  /** How many images the list may hold (docs/rules/screens-shared.md, Uploader: 10 for a product). */
  max: number;
  /** Closed while the caller saves. */
  disabled?: boolean;
  /** What the images show, for their alternative texts ("Image 2 of Oak Shelf"). */
  subject: string;
}

/** Moves the item at `from` to `to` (both valid indexes). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/**
 * Several images with the uploader (docs/rules/screens-shared.md, Uploader): add up to `max` (each at most
 * 10 MB, images only, with progress and the uploader's messages), move one earlier or later, remove
 * one. The first is the primary image and is marked so.
 */
export function ImageListEditor({ value, onChange, max, disabled = false, subject }: ImageListEditorProps) {
  // Several files can finish between two renders, and a render can still show a list older than
  // the last one handed to onChange. So the images uploaded but not yet seen in `value` are kept
  // apart, and each upload appends to the rendered list plus those: none is lost.
  const rendered = useRef(value);
  const notYetShown = useRef<string[]>([]);
  useEffect(() => {
    rendered.current = value;
    notYetShown.current = notYetShown.current.filter((path) => !value.includes(path));
  }, [value]);
  const remaining = Math.max(0, max - value.length);
  const upload = useImageUpload({
    maxNumberOfFiles: Math.max(1, remaining),
    onUploaded: (objectPath) => {
      const waiting = notYetShown.current.filter((path) => !rendered.current.includes(path));
      const current = [...rendered.current, ...waiting];
      if (current.includes(objectPath) || current.length >= max) return;
      notYetShown.current = [...waiting, objectPath];
      onChange([...current, objectPath]);
    },
  });
  const isBusy = disabled || upload.isUploading;
  const move = (from: number, to: number) => onChange(moveItem(value, from, to));
  const remove = (index: number) => onChange(value.filter((_, i) => i !== index));

  return (
    <div className="flex flex-col gap-3" data-testid="image-list-editor">
      {value.length > 0 ? (
        <ol className="grid grid-cols-3 gap-2 sm:grid-cols-4 sm:gap-3" aria-label={`Images of ${subject}`}>
          {value.map((url, index) => {
            const position = `${index + 1} of ${value.length}`;
            return (
              <li
                key={url}
                className={cn(
                  'flex flex-col overflow-hidden rounded-lg border bg-card',
                  index === 0 && 'ring-2 ring-primary',
                )}
                data-testid={`image-item-${index}`}
                data-url={url}
              >
                <div className="relative aspect-square bg-muted">
                  <img
                    src={url}
                    alt={`Image ${position} of ${subject}`}
                    className="size-full object-cover"
                    decoding="async"
                  />
                  {index === 0 ? (
                    <Badge className="absolute left-2 top-2" data-testid="badge-primary-image">
                      Primary
                    </Badge>
                  ) : null}
                </div>
                <div className="flex items-center justify-between gap-1 p-1">
                  <Button
                    variant="ghost"
                    size="icon"
                    onClick={() => move(index, index - 1)}
                    disabled={isBusy || index === 0}
                    aria-label={`Move image ${position} earlier`}
                  >
                    <ArrowLeft aria-hidden="true" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    onClick={() => remove(index)}
                    disabled={isBusy}
                    aria-label={`Remove image ${position}`}
                    className="text-destructive hover:text-destructive"
                  >
                    <X aria-hidden="true" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    onClick={() => move(index, index + 1)}
                    disabled={isBusy || index === value.length - 1}
                    aria-label={`Move image ${position} later`}
                  >
                    <ArrowRight aria-hidden="true" />
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}
      <input {...upload.inputProps} data-testid="input-product-images" />
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="outline"
          onClick={upload.openFilePicker}
          disabled={isBusy || !upload.isReady || remaining === 0}
        >
          {upload.isUploading ? (
            <LoaderCircle aria-hidden="true" className="animate-spin" />
          ) : (
            <ImagePlus aria-hidden="true" />
          )}
          Add Images
        </Button>
        <span className="text-sm text-muted-foreground" data-testid="text-image-count">
          {value.length} of {max} images · the first is the primary image
        </span>
      </div>
      {upload.isUploading ? (
        <UploadProgress value={upload.progress} label="Uploading product images" />
      ) : null}
      <UploadNotices notices={upload.notices} onDismiss={upload.dismissNotice} />
    </div>
  );
}
