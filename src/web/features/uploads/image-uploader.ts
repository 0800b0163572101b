import Uppy, { type Meta, type UppyFile } from '@uppy/core';
import { IMAGE_UNREADABLE_MESSAGE, type UploadUrlAnswer } from '@domain/uploads';
import {
  requestUploadUrl as requestUploadUrlFromServer,
  type UploadUrlRequest,
} from './api/request-upload-url';
import { PresignedPut, type PresignedPutBody, type PresignedTarget } from './presigned-put';
import {
  ALLOWED_IMAGE_TYPES,
  classifyUploadError,
  MAX_IMAGE_BYTES,
  ONLINE_NOTICE_TIMEOUT_MS,
  retryAfterOf,
  retryDelayFor,
  UPLOAD_CONCURRENCY,
  UPLOAD_NOTICE_TIMEOUT_MS,
  UPLOADER_LOCALE,
  uploadErrorDetails,
} from './upload-rules';

export type ImageUppy = Uppy<Meta, PresignedPutBody>;
type ImageFile = UppyFile<Meta, PresignedPutBody>;

export interface UploadNotice {
  id: number;
  tone: 'error' | 'success';
  message: string;
  details?: string;
}

export interface ImageUploaderSnapshot {
  /** Files are being checked, sent, or wait for a retry; the picker is closed meanwhile. */
  isUploading: boolean;
  /**
   * Whole percent of all files in this batch, updated at most every 500 ms
   * (docs/rules/screens-shared.md, Uploader).
   */
  progress: number;
  notices: readonly UploadNotice[];
}

export interface ImageUploaderOptions {
  /**
   * How many files may be chosen at once (docs/rules/screens-shared.md, Uploader: 1 for profile, driver
   * and delivery photos).
   */
  maxNumberOfFiles: number;
  /** Called once per uploaded file with the object path to send as imageUrl. */
  onUploaded: (objectPath: string, fileName: string) => void;
  /** Called when a file is given up on after its retries (the notice is already shown). */
  onFailed?: (error: unknown) => void;
  /** POST /api/objects/upload; tests pass their own. */
  requestUploadUrl?: (file: UploadUrlRequest) => Promise<UploadUrlAnswer>;
  /**
   * Whether a chosen file is a picture the browser can decode; a file that is not is refused before
   * it is sent (docs/rules/screens-shared.md, Uploader). By default createImageBitmap, where the browser
   * has it; null, or a browser without it, sends every file as it is. A decoder that fails (rather
   * than answering false) lets the file go on: the server checks its bytes again.
   */
  decodeImage?: ((file: File) => Promise<boolean>) | null;
}

const IDLE: ImageUploaderSnapshot = { isUploading: false, progress: 0, notices: [] };

/**
 * Like Uppy's default logger, quiet but for errors. Uppy logs a failed request as an error; here each
 * failure is retried or shown to the person as a notice, an expected outcome rather than a fault of
 * the page, so it goes to the console as a warning (CONTRIBUTING.md, Code layout rules: an
 * unexpected console error fails the end-to-end tests).
 */
const uploaderLogger = {
  debug: (): void => {},
  warn: (): void => {},
  error: (...args: unknown[]): void => console.warn('[Uppy]', ...args),
};

/**
 * The browser's own decoder: a file it cannot make a bitmap of is not a picture. Undefined where
 * the browser has none (jsdom).
 */
function browserImageDecoder(): ((file: File) => Promise<boolean>) | undefined {
  if (typeof createImageBitmap !== 'function') return undefined;
  return async (file) => {
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(file);
    } catch {
      return false;
    }
    bitmap.close();
    return true;
  };
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function isUserFacing(error: Error): boolean {
  return !('isUserFacing' in error) || error.isUserFacing !== false;
}

let uploaderCount = 0;

/**
 * Uploads images straight to object storage (docs/rules/selling.md, Uploads and who sees a file)
 * with Uppy: each file gets a presigned URL from POST /api/objects/upload and is sent in one PUT
 * (the spec's images are at most 10 MB). Each PUT is sent once; a failed file is retried here, and
 * only here, after 0, 1, 3 and 5 seconds (docs/rules/screens-shared.md, Uploader), with a new URL when the
 * old one expired. A 429 pauses every upload for its Retry-After (at least the next delay); offline,
 * a file waits until the browser is back online.
 */
export class ImageUploader {
  readonly uppy: ImageUppy;
  readonly #options: ImageUploaderOptions;
  #snapshot: ImageUploaderSnapshot = IDLE;
  #listeners = new Set<() => void>();
  #notices: UploadNotice[] = [];
  #noticeCount = 0;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  /** The presigned URL of each file, kept for retries until it fails for good or expires. */
  #urls = new Map<string, UploadUrlAnswer>();
  #retries = new Map<string, number>();
  #succeeded = new Set<string>();
  #failed = new Set<string>();
  #waitingForRetry = new Set<string>();
  #waitingForOnline = new Set<string>();
  /** Date.now() before which no PUT is sent: a 429 pauses every upload. */
  #pausedUntil = 0;
  /** How many choices are being decoded; they are checked one after the other, in order. */
  #checking = 0;
  #checked: Promise<void> = Promise.resolve();
  #destroyed = false;

  constructor(options: ImageUploaderOptions) {
    this.#options = options;
    uploaderCount += 1;
    this.uppy = new Uppy<Meta, PresignedPutBody>({
      id: `image-uploader-${uploaderCount}`,
      autoProceed: false,
      restrictions: {
        maxFileSize: MAX_IMAGE_BYTES,
        allowedFileTypes: ALLOWED_IMAGE_TYPES,
        maxNumberOfFiles: options.maxNumberOfFiles,
      },
      locale: UPLOADER_LOCALE,
      infoTimeout: UPLOAD_NOTICE_TIMEOUT_MS,
      logger: uploaderLogger,
    });
    this.uppy.use(PresignedPut, {
      sign: this.#sign,
      waitTurn: this.#waitTurn,
      isDue: (fileId) => !this.#waitingForRetry.has(fileId) && !this.#waitingForOnline.has(fileId),
      limit: UPLOAD_CONCURRENCY,
    });

    this.uppy.on('state-update', this.#refresh);
    this.uppy.on('restriction-failed', (_file, error) => {
      if (isUserFacing(error)) this.#notify('error', error.message);
    });
    this.uppy.on('upload-success', this.#onUploadSuccess);
    this.uppy.on('upload-error', this.#onUploadError);
    this.uppy.on('is-offline', () => {
      if (!this.#notices.some((notice) => notice.message === this.#offlineMessage))
        this.#notify('error', this.#offlineMessage, undefined, null);
    });
    this.uppy.on('back-online', () => {
      this.#notices = this.#notices.filter((notice) => notice.message !== this.#offlineMessage);
      this.#notify('success', this.uppy.i18n('connectedToInternet'), undefined, ONLINE_NOTICE_TIMEOUT_MS);
    });
    if (typeof window !== 'undefined') window.addEventListener('online', this.#retryWaitingForOnline);
  }

  get #offlineMessage(): string {
    return this.uppy.i18n('noInternetConnection');
  }

  /**
   * Adds the chosen files and starts uploading them. Each image is decoded first, when a decoder
   * exists: one that is not a picture is refused with its name, and the others of the same choice
   * go on (docs/rules/screens-shared.md, Uploader). The restrictions (type, size, count) then decide which
   * files Uppy takes. The picker stays closed while the files are checked.
   */
  addFiles(files: readonly File[]): void {
    if (this.#destroyed || files.length === 0) return;
    const decodeImage =
      this.#options.decodeImage === undefined ? browserImageDecoder() : this.#options.decodeImage;
    if (!decodeImage) {
      this.#addToUppy(files);
      return;
    }
    this.#checking += 1;
    this.#refresh();
    this.#checked = this.#checked.then(async () => {
      let pictures: File[] = [];
      try {
        pictures = await this.#keepPictures(files, decodeImage);
      } finally {
        this.#checking -= 1;
      }
      if (this.#destroyed) return;
      this.#addToUppy(pictures);
      this.#refresh();
    });
    // A choice that could not be checked leaves the picker open for the next one.
    this.#checked = this.#checked.catch((error: unknown) => {
      this.uppy.log(error, 'warning');
      this.#notify('error', this.uppy.i18n('failedToUpload'));
    });
  }

  /** The files that are pictures, and every file a restriction refuses anyway (Uppy says why). */
  async #keepPictures(
    files: readonly File[],
    decodeImage: (file: File) => Promise<boolean>,
  ): Promise<File[]> {
    const kept: File[] = [];
    // One at a time: a decoded 10 MB photo can take hundreds of MB until it is closed.
    for (const file of files) {
      if (this.#destroyed) return [];
      if (!this.#isDecodable(file) || (await decodeImage(file).catch(() => true))) kept.push(file);
      else
        this.#notify('error', this.uppy.i18n('failedToUpload'), `${file.name}: ${IMAGE_UNREADABLE_MESSAGE}`);
    }
    return kept;
  }

  /** An image within the size limit: worth decoding (anything else gets Uppy's restriction message). */
  #isDecodable(file: File): boolean {
    return file.type.startsWith('image/') && file.size <= MAX_IMAGE_BYTES;
  }

  #addToUppy(files: readonly File[]): void {
    if (files.length === 0) return;
    const before = new Set(Object.keys(this.uppy.getState().files));
    try {
      this.uppy.addFiles(files.map((file) => ({ name: file.name, type: file.type, data: file })));
    } catch (error) {
      // Not a restriction (those are notices already): Uppy itself could not take the files.
      this.uppy.log(error, 'warning');
      this.#notify('error', this.uppy.i18n('failedToUpload'));
      return;
    }
    if (Object.keys(this.uppy.getState().files).some((id) => !before.has(id)))
      this.#run(() => this.uppy.upload());
  }

  setMaxNumberOfFiles(maxNumberOfFiles: number): void {
    this.uppy.setOptions({ restrictions: { maxNumberOfFiles } });
  }

  dismissNotice(id: number): void {
    this.#notices = this.#notices.filter((notice) => notice.id !== id);
    this.#refresh();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): ImageUploaderSnapshot => this.#snapshot;

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (typeof window !== 'undefined') window.removeEventListener('online', this.#retryWaitingForOnline);
    this.uppy.destroy();
    this.#listeners.clear();
  }

  #sign = async (file: ImageFile): Promise<PresignedTarget> => {
    let answer = this.#urls.get(file.id);
    if (!answer) {
      const requestUploadUrl = this.#options.requestUploadUrl ?? requestUploadUrlFromServer;
      answer = await requestUploadUrl({ contentType: file.type, size: file.size ?? 0 });
      this.#urls.set(file.id, answer);
    }
    // The object path comes back as the uploaded file's key (response.body.key).
    return { url: answer.uploadURL, key: answer.objectPath };
  };

  #waitTurn = (): Promise<void> => {
    const wait = this.#pausedUntil - Date.now();
    if (wait <= 0 || this.#destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => this.#later(resolve, wait)).then(this.#waitTurn);
  };

  #onUploadSuccess = (
    file: ImageFile | undefined,
    response: { body?: PresignedPutBody | undefined },
  ): void => {
    if (!file || this.#destroyed) return;
    const objectPath = response.body?.key ?? this.#urls.get(file.id)?.objectPath;
    this.#urls.delete(file.id);
    if (!objectPath) {
      this.#fail(file, new Error('The upload answered without an object path'));
      return;
    }
    this.#succeeded.add(file.id);
    this.#options.onUploaded(objectPath, file.name);
  };

  #onUploadError = (file: ImageFile | undefined, error: unknown): void => {
    if (!file || this.#destroyed) return;
    const action = classifyUploadError(error);
    if (action === 'renew') this.#urls.delete(file.id);
    if (action !== 'final' && isOffline()) {
      // Offline pauses uploads until online; that wait is not a retry (docs/rules/screens-shared.md,
      // Uploader).
      this.#waitingForOnline.add(file.id);
      return;
    }
    const retriesDone = this.#retries.get(file.id) ?? 0;
    const scheduled = action === 'final' ? null : retryDelayFor(retriesDone);
    if (scheduled === null) {
      this.#fail(file, error);
      return;
    }
    // A 429 counts as one of the retries and pauses every upload: for the storage's Retry-After
    // when it is longer than the next delay (docs/rules/screens-shared.md, Uploader).
    const retryAfter = retryAfterOf(error);
    const delay = retryAfter === undefined ? scheduled : Math.max(scheduled, retryAfter);
    if (retryAfter !== undefined) this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + delay);
    this.#retries.set(file.id, retriesDone + 1);
    this.#waitingForRetry.add(file.id);
    this.#later(() => {
      this.#waitingForRetry.delete(file.id);
      this.#retry(file.id);
    }, delay);
  };

  #retryWaitingForOnline = (): void => {
    const ids = [...this.#waitingForOnline];
    this.#waitingForOnline.clear();
    for (const id of ids) this.#retry(id);
  };

  #retry(fileId: string): void {
    if (this.#destroyed) return;
    if (!this.#fileOf(fileId)) {
      this.#settle();
      return;
    }
    this.#run(() => this.uppy.retryUpload(fileId));
  }

  #fail(file: ImageFile, error: unknown): void {
    this.#failed.add(file.id);
    this.#urls.delete(file.id);
    this.#notify('error', this.uppy.i18n('failedToUpload'), uploadErrorDetails(error));
    this.#options.onFailed?.(error);
  }

  /** Runs an upload; when it is over and nothing waits for a retry, the batch is cleared. */
  #run(upload: () => Promise<unknown>): void {
    upload()
      .catch((error: unknown) => {
        // upload() refused to start (a restriction, already a notice): nothing of it is pending.
        this.uppy.log(error, 'warning');
        for (const file of this.uppy.getFiles())
          if (!this.#isAccountedFor(file.id)) this.#failed.add(file.id);
      })
      .finally(() => this.#settle());
  }

  #isAccountedFor(fileId: string): boolean {
    return (
      this.#succeeded.has(fileId) ||
      this.#failed.has(fileId) ||
      this.#waitingForRetry.has(fileId) ||
      this.#waitingForOnline.has(fileId)
    );
  }

  #settle(): void {
    if (this.#destroyed) return;
    const ids = this.uppy.getFiles().map((file) => file.id);
    if (!ids.every((id) => this.#succeeded.has(id) || this.#failed.has(id))) return;
    for (const id of ids) {
      this.#succeeded.delete(id);
      this.#failed.delete(id);
      this.#retries.delete(id);
    }
    // Done files leave, so the next choice starts a new batch within maxNumberOfFiles.
    if (ids.length > 0) this.uppy.removeFiles(ids);
  }

  #fileOf(fileId: string): ImageFile | undefined {
    return this.uppy.getState().files[fileId];
  }

  #notify(
    tone: UploadNotice['tone'],
    message: string,
    details?: string,
    timeoutMs: number | null = UPLOAD_NOTICE_TIMEOUT_MS,
  ): void {
    if (this.#destroyed) return;
    // The same message twice (several files over the limit) is shown once.
    this.#notices = this.#notices.filter(
      (notice) => notice.message !== message || notice.details !== details,
    );
    this.#noticeCount += 1;
    const notice: UploadNotice = { id: this.#noticeCount, tone, message, ...(details ? { details } : {}) };
    this.#notices = [...this.#notices, notice];
    if (timeoutMs !== null) this.#later(() => this.dismissNotice(notice.id), timeoutMs);
    this.#refresh();
  }

  #later(run: () => void, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, delayMs);
    this.#timers.add(timer);
  }

  #refresh = (): void => {
    if (this.#destroyed) return;
    const state = this.uppy.getState();
    const isUploading = Object.keys(state.files).length > 0 || this.#checking > 0;
    const progress = Object.keys(state.files).length > 0 ? state.totalProgress : 0;
    const previous = this.#snapshot;
    if (
      previous.isUploading === isUploading &&
      previous.progress === progress &&
      previous.notices === this.#notices
    )
      return;
    this.#snapshot = { isUploading, progress, notices: this.#notices };
    for (const listener of this.#listeners) listener();
  };
}

export function createImageUploader(options: ImageUploaderOptions): ImageUploader {
  return new ImageUploader(options);
}
