import type { ReactNode } from 'react';
import { ImagePlus, LoaderCircle } from 'lucide-react';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { useImageUpload } from '../use-image-upload';
import { UploadNotices } from './upload-notices';
import { UploadProgress } from './upload-progress';

export interface ImageUploadButtonProps {
  /** The button's text ("Upload photo"). */
  children: ReactNode;
  /** Each uploaded file's object path, to send as imageUrl. */
  onUploaded: (objectPath: string, fileName: string) => void;
  /** How many files may be chosen at once; 1 unless said (docs/rules/screens-shared.md, Uploader). */
  maxNumberOfFiles?: number;
  /** What the progress bar is for, for screen readers. */
  progressLabel?: string;
  /** Closed while the caller saves what was uploaded. */
  disabled?: boolean;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
  'data-testid'?: string;
}

/** A button that opens the file picker, then shows the upload's progress and messages under it. */
export function ImageUploadButton({
  children,
  onUploaded,
  maxNumberOfFiles,
  progressLabel = 'Uploading image',
  disabled = false,
  variant = 'outline',
  size,
  className,
  'data-testid': testId = 'button-upload-image',
}: ImageUploadButtonProps) {
  const upload = useImageUpload({ maxNumberOfFiles, onUploaded });
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <input {...upload.inputProps} data-testid={`${testId}-input`} />
      <Button
        variant={variant}
        size={size}
        onClick={upload.openFilePicker}
        disabled={disabled || !upload.isReady || upload.isUploading}
        data-testid={testId}
      >
        {upload.isUploading ? (
          <LoaderCircle aria-hidden="true" className="animate-spin" />
        ) : (
          <ImagePlus aria-hidden="true" />
        )}
        {children}
      </Button>
      {upload.isUploading ? <UploadProgress value={upload.progress} label={progressLabel} /> : null}
      <UploadNotices notices={upload.notices} onDismiss={upload.dismissNotice} />
    </div>
  );
}
