import { BasePlugin, type Body, type Meta, type PluginOpts, type Uppy, type UppyFile } from '@uppy/core';
import { filterFilesToEmitUploadStarted, filterFilesToUpload, TaskQueue } from '@uppy/core/utils';

/** What a successful PUT leaves on the file: the object path to send as imageUrl. */
export interface PresignedPutBody extends Body {
  key: string;
  location: string;
}

/** Where one file goes: the presigned URL and the object path it becomes. */
export interface PresignedTarget {
  url: string;
  key: string;
}

export interface PresignedPutOptions extends PluginOpts {
  /** The presigned URL for this file (asked of the server, or kept from an earlier attempt). */
  sign: (file: UppyFile<Meta, PresignedPutBody>) => Promise<PresignedTarget>;
  /** Resolves when a request may be sent: a 429 pauses every upload (docs/rules/screens-shared.md, Uploader). */
  waitTurn: () => Promise<void>;
  /**
   * False for a file that waits for its next retry: Uppy's upload() of newly chosen files also
   * restarts every failed file at once, which would break the retry schedule.
   */
  isDue: (fileId: string) => boolean;
  /** How many PUTs run at once. */
  limit: number;
}

/**
 * A PUT that was answered with an error status. `status` and `body` are what
 * `classifyUploadError` reads; `retryAfterMs` is the storage's Retry-After, when it sent one.
 */
export class UploadHttpError extends Error {
  readonly status: number;
  readonly body: string;
  readonly retryAfterMs: number | undefined;
  constructor(status: number, body: string, retryAfterMs: number | undefined) {
    super(`The storage answered ${status}`);
    this.name = 'UploadHttpError';
    this.status = status;
    this.body = body;
    this.retryAfterMs = retryAfterMs;
  }
}

/** No answer came (the connection failed or was refused). */
export class UploadNetworkError extends Error {
  readonly isNetworkError = true;
  constructor() {
    super('No answer from the storage: the network failed or the request was blocked');
    this.name = 'UploadNetworkError';
  }
}

/** Retry-After in seconds or as an HTTP date, as a delay from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Sends each file to object storage in one PUT to its presigned URL, and only once: the caller
 * decides on retries (docs/rules/screens-shared.md, Uploader), so there is one retry schedule, not Uppy's
 * S3 client's own three quick retries under it.
 */
export class PresignedPut extends BasePlugin<PresignedPutOptions, Meta, PresignedPutBody> {
  readonly #queue: TaskQueue;

  constructor(uppy: Uppy<Meta, PresignedPutBody>, opts: PresignedPutOptions) {
    super(uppy, opts);
    this.type = 'uploader';
    this.id = 'PresignedPut';
    this.#queue = new TaskQueue({ concurrency: opts.limit });
  }

  override install(): void {
    this.uppy.addUploader(this.#upload);
  }

  override uninstall(): void {
    this.uppy.removeUploader(this.#upload);
    this.#queue.clear();
  }

  #upload = async (fileIds: string[]): Promise<void> => {
    const files = filterFilesToUpload(this.uppy.getFilesByIds(fileIds)).filter((file) =>
      this.opts.isDue(file.id),
    );
    this.uppy.emit('upload-start', filterFilesToEmitUploadStarted(files));
    await Promise.allSettled(
      files.map((file) =>
        this.#queue.add(async (signal) => {
          const current = this.uppy.getFile(file.id);
          // Removed while it waited in the queue.
          if (!current) return;
          try {
            await this.#send(current, signal);
          } catch (error) {
            if (signal.aborted || !this.uppy.getFile(file.id)) return;
            this.uppy.emit('upload-error', this.uppy.getFile(file.id), error as Error);
          }
        }),
      ),
    );
  };

  async #send(file: UppyFile<Meta, PresignedPutBody>, signal: AbortSignal): Promise<void> {
    const target = await this.opts.sign(file);
    await this.opts.waitTurn();
    signal.throwIfAborted();
    const data = file.data;
    // Files come from the person's device, never from a remote provider.
    if (!(data instanceof Blob)) throw new Error('Only files from this device are uploaded here');
    const total = data.size;
    const uploadStarted = Date.now();
    const xhr = await new Promise<XMLHttpRequest>((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open('PUT', target.url, true);
      request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
      request.upload.onprogress = (event) => {
        if (!event.lengthComputable) return;
        this.uppy.emit('upload-progress', this.uppy.getFile(file.id), {
          uploadStarted,
          bytesUploaded: event.loaded,
          bytesTotal: total,
        });
      };
      request.onload = () => resolve(request);
      request.onerror = () => reject(new UploadNetworkError());
      signal.addEventListener('abort', () => {
        request.abort();
        reject(new DOMException('Upload aborted', 'AbortError'));
      });
      request.send(data);
    });
    if (xhr.status < 200 || xhr.status >= 300)
      throw new UploadHttpError(
        xhr.status,
        xhr.responseText,
        parseRetryAfter(xhr.getResponseHeader('retry-after'), Date.now()),
      );
    // Without these headers exposed a browser cannot tell what the store kept (docs/rules/screens-shared.md,
    // Uploader): worth a word in the log, not a failed upload.
    if (xhr.getResponseHeader('etag') === null)
      this.uppy.log(
        'The upload answer has no ETag header: check the storage bucket allows and exposes it to this origin (CORS)',
        'warning',
      );
    this.uppy.emit('upload-progress', this.uppy.getFile(file.id), {
      uploadStarted,
      bytesUploaded: total,
      bytesTotal: total,
    });
    this.uppy.emit('upload-success', this.uppy.getFile(file.id), {
      status: xhr.status,
      body: { key: target.key, location: target.url.split('?')[0] ?? target.url },
      uploadURL: target.url.split('?')[0] ?? target.url,
    });
  }
}
