import {
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ChangeEvent,
  type RefObject,
} from 'react';
import { isUnauthorizedError } from '../../lib/api-client';
import { toastMutationError } from '../../lib/mutation-errors';
import type { ImageUploader, ImageUploaderSnapshot } from './image-uploader';
import { ALLOWED_IMAGE_TYPES, SINGLE_IMAGE } from './upload-rules';

export interface UseImageUploadOptions {
  /** How many files may be chosen at once; 1 unless said (docs/rules/screens-shared.md, Uploader). */
  maxNumberOfFiles?: number;
  /** Each uploaded file's object path, to send as imageUrl. */
  onUploaded: (objectPath: string, fileName: string) => void;
}

export interface ImageFileInputProps {
  ref: RefObject<HTMLInputElement | null>;
  type: 'file';
  accept: string;
  multiple: boolean;
  hidden: true;
  tabIndex: -1;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

export interface ImageUploadControls extends ImageUploaderSnapshot {
  /** False until the uploader's code is loaded and it exists (just after the first render). */
  isReady: boolean;
  /** Opens the system file picker; call it from a click. */
  openFilePicker: () => void;
  /** For a hidden `<input>`: the button that calls openFilePicker is what people use. */
  inputProps: ImageFileInputProps;
  dismissNotice: (id: number) => void;
  /** Adds files as if chosen in the picker (drag and drop, tests). */
  addFiles: (files: readonly File[]) => void;
}

const IDLE: ImageUploaderSnapshot = { isUploading: false, progress: 0, notices: [] };
const subscribeToNothing = () => () => {};
const idleSnapshot = () => IDLE;

/**
 * A signed-out upload is reported the usual way (docs/rules/screens-shared.md, Uploader): sign in again
 * after 500 ms.
 */
function reportFailure(error: unknown): void {
  if (isUnauthorizedError(error)) toastMutationError(error, 'Failed to upload file');
}

/**
 * An image uploader for one screen: a hidden file input, the picker, progress and notices. The
 * Uppy instance lives while the component is mounted (made in an effect, so React's development
 * double mount makes and closes one cleanly), and Uppy's code is fetched then, in its own chunk.
 */
export function useImageUpload({
  maxNumberOfFiles = SINGLE_IMAGE,
  onUploaded,
}: UseImageUploadOptions): ImageUploadControls {
  const inputRef = useRef<HTMLInputElement>(null);
  const [uploader, setUploader] = useState<ImageUploader | null>(null);
  const onUploadedRef = useRef(onUploaded);
  const maxRef = useRef(maxNumberOfFiles);
  /** Files given before Uppy's code arrived (the picker's button is disabled until then, tests are quicker). */
  const pendingFiles = useRef<File[]>([]);

  useEffect(() => {
    onUploadedRef.current = onUploaded;
    maxRef.current = maxNumberOfFiles;
  }, [onUploaded, maxNumberOfFiles]);

  useEffect(() => {
    let created: ImageUploader | null = null;
    let isMounted = true;
    // Uppy is loaded with the first screen that uploads, not with the app.
    import('./image-uploader')
      .then(({ createImageUploader }) => {
        if (!isMounted) return;
        created = createImageUploader({
          maxNumberOfFiles: maxRef.current,
          onUploaded: (objectPath, fileName) => onUploadedRef.current(objectPath, fileName),
          onFailed: reportFailure,
        });
        setUploader(created);
        const chosenEarly = pendingFiles.current.splice(0);
        if (chosenEarly.length > 0) created.addFiles(chosenEarly);
      })
      // The buttons stay disabled; a reload fetches the code again.
      .catch((error: unknown) => console.warn('The uploader could not be loaded', error));
    return () => {
      isMounted = false;
      created?.destroy();
    };
  }, []);

  useEffect(() => {
    uploader?.setMaxNumberOfFiles(maxNumberOfFiles);
  }, [uploader, maxNumberOfFiles]);

  const snapshot = useSyncExternalStore(
    uploader ? uploader.subscribe : subscribeToNothing,
    uploader ? uploader.getSnapshot : idleSnapshot,
    // A page rendered on the server (the driver dashboard) shows the uploader idle.
    idleSnapshot,
  );

  const openFilePicker = useCallback(() => inputRef.current?.click(), []);
  const addFiles = useCallback(
    (files: readonly File[]) => {
      if (uploader) uploader.addFiles(files);
      else pendingFiles.current.push(...files);
    },
    [uploader],
  );
  const dismissNotice = useCallback((id: number) => uploader?.dismissNotice(id), [uploader]);

  const onChange = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => {
      const files = Array.from(event.currentTarget.files ?? []);
      // Cleared so that choosing the same file again is a change too.
      event.currentTarget.value = '';
      addFiles(files);
    },
    [addFiles],
  );

  return {
    ...snapshot,
    isReady: uploader !== null,
    openFilePicker,
    addFiles,
    dismissNotice,
    inputProps: {
      ref: inputRef,
      type: 'file',
      accept: ALLOWED_IMAGE_TYPES.join(','),
      multiple: maxNumberOfFiles > 1,
      hidden: true,
      tabIndex: -1,
      onChange,
    },
  };
}
