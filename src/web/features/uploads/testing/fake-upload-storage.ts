import { vi } from 'vitest';
import { jsonResponse, type Route } from '../../../test-support/render';

/** One request as the fake storage saw it. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Date.now() when it was sent (fake timers make this exact). */
  at: number;
}

export type StorageAnswer =
  { status: number; body?: string; headers?: Record<string, string> } | 'network-error';

export interface FakeUploadStorage {
  /** The PUTs (and any other XHR) sent, in order. */
  sent: SentRequest[];
  /** How the storage answers a request; 200 with an ETag unless a test says otherwise. */
  answer: (request: SentRequest) => StorageAnswer;
  /** How long a request takes. */
  durationMs: number;
  /** How many progress events a request reports, evenly over its duration. */
  progressSteps: number;
  /** POST /api/objects/upload answering a new local presigned URL each time (for mockFetch). */
  uploadUrlRoute: Route;
  /** How many upload URLs were handed out. */
  uploadUrlCount: () => number;
}

export const objectPathOfUpload = (n: number) =>
  `/objects/uploads/00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Replaces XMLHttpRequest (what Uppy sends files with) by an object store that answers in memory.
 * Call in each test (beforeEach); vi.unstubAllGlobals() puts the real one back.
 */
export function installFakeUploadStorage(): FakeUploadStorage {
  let urls = 0;
  const storage: FakeUploadStorage = {
    sent: [],
    answer: () => ({ status: 200, headers: { ETag: '"d41d8cd98f00b204e9800998ecf8427e"' } }),
    durationMs: 10,
    progressSteps: 2,
    uploadUrlRoute: (url, init) => {
      if (url !== '/api/objects/upload' || init?.method !== 'POST') return undefined;
      urls += 1;
      const objectPath = objectPathOfUpload(urls);
      const id = objectPath.split('/').at(-1) ?? '';
      return jsonResponse({
        uploadURL: `http://localhost/api/objects/local/uploads/${id}?expires=1&signature=s${urls}`,
        objectPath,
      });
    },
    uploadUrlCount: () => urls,
  };

  class FakeXhr {
    status = 0;
    statusText = '';
    responseText = '';
    responseType = '';
    withCredentials = false;
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    #method = '';
    #url = '';
    #headers: Record<string, string> = {};
    #answerHeaders: Record<string, string> = {};
    #aborted = false;

    open(method: string, url: string) {
      this.#method = method;
      this.#url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.#headers[name.toLowerCase()] = value;
    }
    getResponseHeader(name: string): string | null {
      return this.#answerHeaders[name.toLowerCase()] ?? null;
    }
    abort() {
      this.#aborted = true;
    }
    send(body: unknown) {
      const request: SentRequest = {
        method: this.#method,
        url: this.#url,
        headers: this.#headers,
        body,
        at: Date.now(),
      };
      storage.sent.push(request);
      const answer = storage.answer(request);
      const size = body instanceof Blob ? body.size : 0;
      const progress = (loaded: number) =>
        this.upload.onprogress?.(
          new ProgressEvent('progress', { lengthComputable: true, loaded, total: size }),
        );
      const { durationMs, progressSteps } = storage;
      for (let step = 1; step < progressSteps; step += 1) {
        setTimeout(
          () => {
            if (!this.#aborted && answer !== 'network-error')
              progress(Math.floor((size * step) / progressSteps));
          },
          (durationMs * step) / progressSteps,
        );
      }
      setTimeout(() => {
        if (this.#aborted) return;
        if (answer === 'network-error') {
          this.onerror?.();
          return;
        }
        progress(size);
        this.status = answer.status;
        this.responseText = answer.body ?? '';
        this.#answerHeaders = Object.fromEntries(
          Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
        );
        this.onload?.();
      }, durationMs);
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return storage;
}
