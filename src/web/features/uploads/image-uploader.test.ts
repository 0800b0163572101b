// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../../test-support/render';
import { createImageUploader, type ImageUploader, type ImageUploaderOptions } from './image-uploader';
import { MAX_IMAGE_BYTES, MAX_PRODUCT_IMAGES } from './upload-rules';
import {
  installFakeUploadStorage,
  objectPathOfUpload,
  type FakeUploadStorage,
} from './testing/fake-upload-storage';

const png = (name = 'avatar.png', size = 68) => new File([new Uint8Array(size)], name, { type: 'image/png' });

let uploaders: ImageUploader[] = [];
function makeUploader(overrides: Partial<ImageUploaderOptions> = {}) {
  const onUploaded = vi.fn();
  const onFailed = vi.fn();
  const uploader = createImageUploader({ maxNumberOfFiles: 1, onUploaded, onFailed, ...overrides });
  uploaders.push(uploader);
  return { uploader, onUploaded, onFailed };
}

const messagesOf = (uploader: ImageUploader) =>
  uploader.getSnapshot().notices.map((notice) => notice.message);

let storage: FakeUploadStorage;
let sent: FakeUploadStorage['sent'];
let uploadUrlRoute: FakeUploadStorage['uploadUrlRoute'];
const answerWith = (answer: FakeUploadStorage['answer']) => (storage.answer = answer);

beforeEach(() => {
  storage = installFakeUploadStorage();
  ({ sent, uploadUrlRoute } = storage);
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  for (const uploader of uploaders) uploader.destroy();
  uploaders = [];
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ImageUploader restrictions (docs/rules/screens-shared.md, Uploader)', () => {
  it('refuses a file over 10 MB with the spec message, and sends nothing', () => {
    const fetchMock = mockFetch(uploadUrlRoute);
    const { uploader } = makeUploader();
    uploader.addFiles([png('huge.png', MAX_IMAGE_BYTES + 1)]);
    expect(messagesOf(uploader)).toEqual(['File exceeds maximum allowed size']);
    expect(uploader.getSnapshot().isUploading).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes a file of exactly 10485760 bytes', () => {
    mockFetch(uploadUrlRoute);
    const { uploader } = makeUploader();
    uploader.addFiles([png('exact.png', 10_485_760)]);
    expect(messagesOf(uploader)).toEqual([]);
    expect(uploader.getSnapshot().isUploading).toBe(true);
  });

  it('refuses anything but an image', () => {
    mockFetch(uploadUrlRoute);
    const { uploader } = makeUploader();
    uploader.addFiles([new File(['%PDF-1.7'], 'cv.pdf', { type: 'application/pdf' })]);
    expect(messagesOf(uploader)).toEqual(['You can only upload: image/*']);
    expect(uploader.getSnapshot().isUploading).toBe(false);
  });

  it('takes one file for a profile picture, and refuses a choice of more', () => {
    const fetchMock = mockFetch(uploadUrlRoute);
    const { uploader } = makeUploader({ maxNumberOfFiles: 1 });
    uploader.addFiles([png('a.png'), png('b.png', 70), png('c.png', 72)]);
    expect(messagesOf(uploader)).toEqual(['You can only upload 1 file(s)']);
    // Uppy takes a choice whole or not at all: the person chooses again.
    expect(uploader.uppy.getFiles()).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes at most 10 product images', () => {
    mockFetch(uploadUrlRoute);
    const { uploader } = makeUploader({ maxNumberOfFiles: MAX_PRODUCT_IMAGES });
    uploader.addFiles(Array.from({ length: 11 }, (_, i) => png(`p${i}.png`, 100 + i)));
    expect(messagesOf(uploader)).toEqual(['You can only upload 10 file(s)']);
    expect(uploader.uppy.getFiles()).toEqual([]);
    uploader.addFiles(Array.from({ length: 10 }, (_, i) => png(`p${i}.png`, 100 + i)));
    expect(uploader.uppy.getFiles()).toHaveLength(10);
  });

  it('drops a notice after 5000 ms', () => {
    vi.useFakeTimers();
    const { uploader } = makeUploader();
    uploader.addFiles([new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    vi.advanceTimersByTime(4999);
    expect(messagesOf(uploader)).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(messagesOf(uploader)).toEqual([]);
  });
});

describe('ImageUploader uploads (docs/rules/screens-shared.md, Uploader)', () => {
  it('asks for a URL, PUTs the file to it and reports the object path', async () => {
    const fetchMock = mockFetch(uploadUrlRoute);
    const { uploader, onUploaded } = makeUploader();
    const file = png('me.png', 68);
    uploader.addFiles([file]);

    await vi.waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(1));
    expect(onUploaded).toHaveBeenCalledWith(objectPathOfUpload(1), 'me.png');

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/objects/upload');
    expect(init?.credentials).toBe('include');
    expect(JSON.parse(String(init?.body))).toEqual({ contentType: 'image/png', size: 68 });

    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('PUT');
    expect(sent[0]?.url).toBe(
      'http://localhost/api/objects/local/uploads/00000000-0000-4000-8000-000000000001?expires=1&signature=s1',
    );
    expect(sent[0]?.headers['content-type']).toBe('image/png');
    expect(sent[0]?.body).toBeInstanceOf(Blob);
    expect((sent[0]?.body as Blob).size).toBe(68);

    // The batch is cleared, so another photo can be chosen.
    await vi.waitFor(() => expect(uploader.getSnapshot().isUploading).toBe(false));
    expect(uploader.uppy.getFiles()).toEqual([]);
  });

  it('reports each of several files, six at a time at most', async () => {
    mockFetch(uploadUrlRoute);
    const { uploader, onUploaded } = makeUploader({ maxNumberOfFiles: MAX_PRODUCT_IMAGES });
    let inFlight = 0;
    let mostInFlight = 0;
    answerWith(() => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => (inFlight -= 1), 10);
      return { status: 200 };
    });
    uploader.addFiles(Array.from({ length: 8 }, (_, i) => png(`p${i}.png`, 100 + i)));

    await vi.waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(8));
    expect(new Set(onUploaded.mock.calls.map(([objectPath]) => objectPath)).size).toBe(8);
    expect(mostInFlight).toBeLessThanOrEqual(6);
    await vi.waitFor(() => expect(uploader.getSnapshot().isUploading).toBe(false));
  });

  it('shows the progress of the batch, updated at most every 500 ms', async () => {
    vi.useFakeTimers();
    mockFetch(uploadUrlRoute);
    storage.durationMs = 2000;
    storage.progressSteps = 200;
    const { uploader, onUploaded } = makeUploader();
    const seen: number[] = [];
    uploader.subscribe(() => seen.push(uploader.getSnapshot().progress));
    uploader.addFiles([new File([new Uint8Array(10_000)], 'big.png', { type: 'image/png' })]);

    await vi.advanceTimersByTimeAsync(1900);
    expect(uploader.getSnapshot().isUploading).toBe(true);
    // 190 progress events so far, shown 5 times at most: at once, then every 500 ms.
    const shown = seen.filter((progress, i) => progress !== seen[i - 1]);
    expect(shown.length).toBeGreaterThan(2);
    expect(shown.length).toBeLessThanOrEqual(5);
    expect(uploader.getSnapshot().progress).toBeGreaterThanOrEqual(70);
    expect(uploader.getSnapshot().progress).toBeLessThan(100);

    await vi.advanceTimersByTimeAsync(200);
    expect(onUploaded).toHaveBeenCalledTimes(1);
    expect(uploader.getSnapshot()).toMatchObject({ isUploading: false, progress: 0 });
  });
});

describe('ImageUploader decodes each image before sending it (docs/rules/screens-shared.md, Uploader)', () => {
  const jpeg = (name: string, size = 80) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });
  /** A decoder the test answers by hand, file by file. */
  function manualDecoder() {
    const pending = new Map<string, (isPicture: boolean) => void>();
    const decodeImage = vi.fn(
      (file: File) => new Promise<boolean>((resolve) => pending.set(file.name, resolve)),
    );
    const answer = async (name: string, isPicture: boolean) => {
      await vi.waitFor(() => expect(pending.has(name)).toBe(true));
      pending.get(name)?.(isPicture);
    };
    return { decodeImage, answer };
  }

  it('refuses a file that is not a picture, with its name, and uploads the others of the choice', async () => {
    const fetchMock = mockFetch(uploadUrlRoute);
    const decodeImage = vi.fn(async (file: File) => file.name !== 'photo.jpg');
    const { uploader, onUploaded } = makeUploader({ maxNumberOfFiles: MAX_PRODUCT_IMAGES, decodeImage });
    uploader.addFiles([jpeg('first.jpg', 81), jpeg('photo.jpg', 82), jpeg('last.jpg', 83)]);

    await vi.waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(2));
    expect(onUploaded.mock.calls.map(([, fileName]) => fileName).sort()).toEqual(['first.jpg', 'last.jpg']);
    expect(uploader.getSnapshot().notices).toEqual([
      expect.objectContaining({
        tone: 'error',
        message: 'Failed to upload file',
        details: 'photo.jpg: File is not an image',
      }),
    ]);
    // Neither a URL nor a PUT for the refused file.
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sent.map((request) => (request.body as Blob).size).sort()).toEqual([81, 83]);
    await vi.waitFor(() => expect(uploader.getSnapshot().isUploading).toBe(false));
  });

  it('names each refused file, and sends nothing when none is a picture', async () => {
    const fetchMock = mockFetch(uploadUrlRoute);
    const { uploader, onUploaded } = makeUploader({
      maxNumberOfFiles: MAX_PRODUCT_IMAGES,
      decodeImage: async () => false,
    });
    uploader.addFiles([jpeg('a.jpg', 81), jpeg('b.jpg', 82)]);

    await vi.waitFor(() => expect(uploader.getSnapshot().notices).toHaveLength(2));
    expect(uploader.getSnapshot().notices.map((notice) => notice.details)).toEqual([
      'a.jpg: File is not an image',
      'b.jpg: File is not an image',
    ]);
    expect(uploader.getSnapshot().isUploading).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(sent).toHaveLength(0);
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('keeps the picker closed while the files are checked, and checks a second choice after the first', async () => {
    mockFetch(uploadUrlRoute);
    const { decodeImage, answer } = manualDecoder();
    const { uploader, onUploaded } = makeUploader({ maxNumberOfFiles: MAX_PRODUCT_IMAGES, decodeImage });
    uploader.addFiles([jpeg('one.jpg', 81)]);
    expect(uploader.getSnapshot().isUploading).toBe(true);
    uploader.addFiles([jpeg('two.jpg', 82)]);

    await answer('one.jpg', true);
    await vi.waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(1));
    // The second choice waited for the first one's check.
    expect(decodeImage.mock.calls.map(([file]) => file.name)).toEqual(['one.jpg', 'two.jpg']);
    expect(uploader.getSnapshot().isUploading).toBe(true);

    await answer('two.jpg', false);
    await vi.waitFor(() => expect(uploader.getSnapshot().isUploading).toBe(false));
    expect(onUploaded.mock.calls.map(([, fileName]) => fileName)).toEqual(['one.jpg']);
    expect(messagesOf(uploader)).toEqual(['Failed to upload file']);
  });

  it('leaves a file of the wrong type or over 10 MB to the restrictions, undecoded', async () => {
    const fetchMock = mockFetch(uploadUrlRoute);
    const decodeImage = vi.fn(async () => true);
    const { uploader } = makeUploader({ decodeImage });
    uploader.addFiles([new File(['%PDF-1.7'], 'cv.pdf', { type: 'application/pdf' })]);
    await vi.waitFor(() => expect(messagesOf(uploader)).toEqual(['You can only upload: image/*']));
    uploader.addFiles([png('huge.png', MAX_IMAGE_BYTES + 1)]);
    await vi.waitFor(() =>
      expect(messagesOf(uploader)).toEqual([
        'You can only upload: image/*',
        'File exceeds maximum allowed size',
      ]),
    );
    expect(decodeImage).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(uploader.getSnapshot().isUploading).toBe(false);
  });

  it("decodes with the browser's createImageBitmap, and closes the bitmap", async () => {
    mockFetch(uploadUrlRoute);
    const close = vi.fn();
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async (file: File) => {
        if (file.name === 'photo.jpg') throw new DOMException('The source image could not be decoded.');
        return { close };
      }),
    );
    const { uploader, onUploaded } = makeUploader({ maxNumberOfFiles: 2 });
    uploader.addFiles([jpeg('good.jpg'), jpeg('photo.jpg', 81)]);

    await vi.waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(1));
    expect(onUploaded).toHaveBeenCalledWith(objectPathOfUpload(1), 'good.jpg');
    expect(close).toHaveBeenCalledTimes(1);
    expect(uploader.getSnapshot().notices).toEqual([
      expect.objectContaining({
        message: 'Failed to upload file',
        details: 'photo.jpg: File is not an image',
      }),
    ]);
    expect(sent).toHaveLength(1);
  });
});

describe('ImageUploader retries (docs/rules/screens-shared.md, Uploader)', () => {
  it('retries a server error with the same URL, and then succeeds', async () => {
    vi.useFakeTimers();
    const fetchMock = mockFetch(uploadUrlRoute);
    const { uploader, onUploaded } = makeUploader();
    answerWith(() => (sent.length <= 2 ? { status: 503 } : { status: 200 }));
    uploader.addFiles([png()]);

    await vi.advanceTimersByTimeAsync(10_000);
    expect(onUploaded).toHaveBeenCalledWith(objectPathOfUpload(1), 'avatar.png');
    // One retry layer: two failures, then the second retry (after 0 and 1 s) goes through.
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((request) => request.url)).size).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(messagesOf(uploader)).toEqual([]);
  });

  it('sends a file that keeps failing with 503 five times, 0, 1, 3 and 5 s apart, then says so once', async () => {
    vi.useFakeTimers();
    mockFetch(uploadUrlRoute);
    const { uploader, onFailed } = makeUploader();
    answerWith(() => ({ status: 503 }));
    uploader.addFiles([png()]);

    // The last try leaves after 0 + 1 + 3 + 5 s (and each fake request takes 10 ms).
    await vi.advanceTimersByTimeAsync(9_000);
    expect(sent).toHaveLength(4);
    expect(messagesOf(uploader)).toEqual([]);
    expect(uploader.getSnapshot().isUploading).toBe(true);

    await vi.advanceTimersByTimeAsync(200);
    expect(sent).toHaveLength(5);
    const gaps = sent.slice(1).map((request, i) => request.at - (sent[i]?.at ?? 0));
    expect(gaps.map((gap) => Math.round(gap / 100) * 100)).toEqual([0, 1000, 3000, 5000]);
    expect(messagesOf(uploader)).toEqual(['Failed to upload file']);
    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(uploader.getSnapshot().isUploading).toBe(false);

    await vi.advanceTimersByTimeAsync(30_000);
    expect(sent).toHaveLength(5);
  });

  it('takes a network failure through the same five tries', async () => {
    vi.useFakeTimers();
    mockFetch(uploadUrlRoute);
    const { uploader, onFailed } = makeUploader();
    answerWith(() => 'network-error');
    uploader.addFiles([png()]);

    await vi.advanceTimersByTimeAsync(9_500);
    expect(sent).toHaveLength(5);
    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(messagesOf(uploader)).toEqual(['Failed to upload file']);
  });

  it("pauses every upload for a 429's Retry-After, then goes on", async () => {
    vi.useFakeTimers();
    mockFetch(uploadUrlRoute);
    const { uploader, onUploaded } = makeUploader({ maxNumberOfFiles: 2 });
    storage.durationMs = 10;
    let refused = false;
    answerWith(() => {
      if (refused) return { status: 200 };
      refused = true;
      return { status: 429, headers: { 'Retry-After': '4' } };
    });
    uploader.addFiles([png('a.png', 100)]);
    await vi.advanceTimersByTimeAsync(20);
    expect(sent).toHaveLength(1);

    // A second file chosen during the pause waits too.
    uploader.addFiles([png('b.png', 101)]);
    await vi.advanceTimersByTimeAsync(3_900);
    expect(sent).toHaveLength(1);
    expect(onUploaded).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(200);
    expect(sent).toHaveLength(3);
    expect(sent[1]?.at).toBeGreaterThanOrEqual((sent[0]?.at ?? 0) + 4000);
    await vi.advanceTimersByTimeAsync(100);
    expect(onUploaded).toHaveBeenCalledTimes(2);
  });

  it('retries a 429 without Retry-After on the spec schedule, and gives up after the last delay', async () => {
    vi.useFakeTimers();
    mockFetch(uploadUrlRoute);
    const { uploader, onFailed } = makeUploader();
    answerWith(() => ({ status: 429 }));
    uploader.addFiles([png()]);

    await vi.advanceTimersByTimeAsync(9_500);
    expect(sent).toHaveLength(5);
    const gaps = sent.slice(1).map((request, i) => request.at - (sent[i]?.at ?? 0));
    expect(gaps.map((gap) => Math.round(gap / 100) * 100)).toEqual([0, 1000, 3000, 5000]);
    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(messagesOf(uploader)).toEqual(['Failed to upload file']);
  });

  it("asks for a new URL after 403 'Request has expired', after 0, 1, 3 and 5 s, then gives up", async () => {
    vi.useFakeTimers();
    const fetchMock = mockFetch(uploadUrlRoute);
    const { uploader, onUploaded, onFailed } = makeUploader();
    answerWith(() => ({
      status: 403,
      body: JSON.stringify({ message: 'Request has expired', code: 'forbidden', requestId: 'r' }),
      headers: { 'content-type': 'application/json' },
    }));
    uploader.addFiles([png()]);

    // The last retry starts after 0 + 1 + 3 + 5 s; its notice then stays 5 s.
    await vi.advanceTimersByTimeAsync(9_500);
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((request) => request.url)).size).toBe(5);
    expect(fetchMock).toHaveBeenCalledTimes(5);
    const gaps = sent.slice(1).map((request, i) => request.at - (sent[i]?.at ?? 0));
    // Each gap is the retry delay plus the fake request's 10 ms and the URL request's moment.
    expect(gaps.map((gap) => Math.round(gap / 500) * 500)).toEqual([0, 1000, 3000, 5000]);

    expect(onUploaded).not.toHaveBeenCalled();
    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(uploader.getSnapshot().notices).toEqual([
      expect.objectContaining({
        tone: 'error',
        message: 'Failed to upload file',
        details: 'Request has expired',
      }),
    ]);
    expect(uploader.getSnapshot().isUploading).toBe(false);
  });

  it("gives up at once on a refused file, with the server's reason", async () => {
    vi.useFakeTimers();
    mockFetch(uploadUrlRoute);
    const { uploader, onFailed } = makeUploader();
    answerWith(() => ({
      status: 400,
      body: JSON.stringify({ message: 'File is not an image', code: 'bad_request', requestId: 'r' }),
    }));
    uploader.addFiles([png()]);

    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(1);
    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(uploader.getSnapshot().notices).toEqual([
      expect.objectContaining({ message: 'Failed to upload file', details: 'File is not an image' }),
    ]);
    expect(uploader.getSnapshot().isUploading).toBe(false);
  });

  it('does not retry when the URL cannot be had because the user is signed out', async () => {
    vi.useFakeTimers();
    const fetchMock = mockFetch((url) =>
      url === '/api/objects/upload'
        ? jsonResponse({ message: 'Unauthorized', code: 'unauthorized', requestId: 'r' }, 401)
        : undefined,
    );
    const { uploader, onFailed } = makeUploader();
    uploader.addFiles([png()]);

    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(0);
    expect(onFailed).toHaveBeenCalledWith(expect.objectContaining({ status: 401 }));
    expect(messagesOf(uploader)).toEqual(['Failed to upload file']);
  });
});

describe('ImageUploader offline (docs/rules/screens-shared.md, Uploader)', () => {
  let online = true;
  beforeEach(() => {
    online = true;
    Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  });
  afterEach(() => {
    Reflect.deleteProperty(window.navigator, 'onLine');
  });

  it("says 'No Internet connection' until back online, then 'Connected to the Internet' for 3 s", async () => {
    vi.useFakeTimers();
    const { uploader } = makeUploader();
    online = false;
    window.dispatchEvent(new Event('offline'));
    expect(messagesOf(uploader)).toEqual(['No Internet connection']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(messagesOf(uploader)).toEqual(['No Internet connection']);

    online = true;
    window.dispatchEvent(new Event('online'));
    expect(messagesOf(uploader)).toEqual(['Connected to the Internet']);
    await vi.advanceTimersByTimeAsync(3000);
    expect(messagesOf(uploader)).toEqual([]);
  });

  it('holds a file that failed offline until the browser is online again', async () => {
    vi.useFakeTimers();
    mockFetch(uploadUrlRoute);
    const { uploader, onUploaded } = makeUploader();
    answerWith(() => {
      if (sent.length === 1) {
        online = false;
        return 'network-error';
      }
      return { status: 200 };
    });
    uploader.addFiles([png()]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
    expect(onUploaded).not.toHaveBeenCalled();
    expect(uploader.getSnapshot().isUploading).toBe(true);

    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toHaveLength(2);
    expect(onUploaded).toHaveBeenCalledTimes(1);
  });
});
