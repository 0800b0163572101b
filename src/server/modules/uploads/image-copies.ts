import type { Sharp } from 'sharp';
import { IMAGE_COPY_WIDTHS, type ImageCopyWidth } from '../../../domain/image-copies';
import { IMAGE_UNREADABLE_MESSAGE } from '../../../domain/uploads';

/**
 * Resized WebP copies of a picture (docs/decisions/0014-first-load.md, Resized copies), made with
 * sharp. sharp (libvips, about 30 MB resident once loaded) is imported on the first resize only,
 * so a server that resizes nothing starts and runs as before
 * (docs/decisions/0016-embedded-database-process.md, Memory).
 */

/**
 * A picture of more pixels than this is refused before it is decoded: 50 million is more than a
 * 48-megapixel phone camera, and a file that claims more in its header (a decompression bomb: a few
 * kB that would decode to gigabytes) is refused from its header alone.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const IMAGE_TOO_LARGE_MESSAGE = 'Image is too large (at most 50 megapixels)';
const WEBP_QUALITY = 80;
/** A copy is at most twice as tall as wide, so a very tall strip cannot make a huge copy. */
const MAX_ASPECT = 2;
/** A resize that takes longer than this is given up (the picture then goes without copies). */
const TIMEOUT_SECONDS = 30;

/** The picture itself is refused (not decodable, too many pixels): a 400 for the uploader. */
export class ImageRefusedError extends Error {}

export interface ImageCopy {
  width: ImageCopyWidth;
  bytes: Buffer;
}

type SharpModule = typeof import('sharp').default;
let loading: Promise<SharpModule> | undefined;

function loadSharp(): Promise<SharpModule> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // Nothing is resized twice: libvips' operation cache would only hold memory.
    sharp.cache(false);
    // Only the loaders of the accepted types (docs/rules/selling.md, Uploads and who sees a file):
    // bytes that passed the magic-byte check can never reach the SVG, PDF, TIFF, ... loaders.
    sharp.block({ operation: ['VipsForeignLoad'] });
    sharp.unblock({
      operation: [
        'VipsForeignLoadJpegBuffer',
        'VipsForeignLoadPngBuffer',
        'VipsForeignLoadNsgifBuffer',
        'VipsForeignLoadWebpBuffer',
      ],
    });
    return sharp;
  });
  return loading;
}

/**
 * Two lanes of one decode each, so at most two 50-megapixel decodes are in memory at once: the
 * checks a request waits for (the foreground), and the copies made after a claim (the background),
 * which never hold a request up (docs/decisions/0014-first-load.md, Resized copies).
 */
function lane(): <T>(work: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  };
}
const foregroundLane = lane();
const backgroundLane = lane();

/** Checks running or waiting, and when the last one ended. */
let checksInFlight = 0;
let lastCheckEndedAt = 0;
function oneCheckAtATime<T>(work: () => Promise<T>): Promise<T> {
  checksInFlight += 1;
  return foregroundLane(work).finally(() => {
    checksInFlight -= 1;
    lastCheckEndedAt = Date.now();
  });
}

/**
 * A background copy starts once no check has run for this long: the ten pictures of one save are
 * checked one request after another, a few milliseconds apart, and their copies wait until the
 * save is done rather than take the CPU from it. It waits at most {@link MAX_BACKGROUND_WAIT_MS}.
 */
const QUIET_MS = 300;
const MAX_BACKGROUND_WAIT_MS = 10_000;

async function afterChecksQuiet(): Promise<void> {
  const started = Date.now();
  for (;;) {
    const now = Date.now();
    const quietFor = now - lastCheckEndedAt;
    if ((checksInFlight === 0 && quietFor >= QUIET_MS) || now - started >= MAX_BACKGROUND_WAIT_MS) return;
    const wait = checksInFlight > 0 ? QUIET_MS : QUIET_MS - quietFor;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, MAX_BACKGROUND_WAIT_MS)));
  }
}

/**
 * The copies of `original` at IMAGE_COPY_WIDTHS up to the first one as wide as the original or
 * wider, which holds the picture at its own width (a 400 px picture has the 160, 320 and 640, the
 * last 400 px wide), upright (EXIF
 * orientation applied) and without metadata (no camera or location data in copies). The picture is
 * decoded once, shrunk to the largest copy, and the others are made from that.
 * Throws ImageRefusedError when the bytes are not a decodable image or have too many pixels.
 */
export function makeImageCopies(original: Uint8Array): Promise<ImageCopy[]> {
  return backgroundLane(async () => {
    await afterChecksQuiet();
    const sharp = await loadSharp();
    const largest = Math.max(...IMAGE_COPY_WIDTHS);
    let base: { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
    try {
      base = await sharp(original, {
        limitInputPixels: MAX_IMAGE_PIXELS,
        // Browsers show a picture with a minor flaw; only a real decoding error refuses it.
        failOn: 'error',
        autoOrient: true,
      })
        .resize({ width: largest, height: largest * MAX_ASPECT, fit: 'inside', withoutEnlargement: true })
        .raw({ depth: 'uchar' })
        .timeout({ seconds: TIMEOUT_SECONDS })
        .toBuffer({ resolveWithObject: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/timeout/i.test(message)) throw error;
      throw new ImageRefusedError(
        /pixel limit/i.test(message) ? IMAGE_TOO_LARGE_MESSAGE : IMAGE_UNREADABLE_MESSAGE,
        { cause: error },
      );
    }
    const { width, height, channels } = base.info;
    const encode = (pipeline: Sharp) =>
      pipeline.webp({ quality: WEBP_QUALITY }).timeout({ seconds: TIMEOUT_SECONDS }).toBuffer();
    const copies: ImageCopy[] = [];
    for (const copyWidth of IMAGE_COPY_WIDTHS) {
      const pipeline = sharp(base.data, { raw: { width, height, channels } });
      if (copyWidth >= width) {
        // The picture at its own width; a wider copy would be the same file, and readers asking for
        // one get this (uploads.service.ts, openUploadCopy).
        copies.push({ width: copyWidth, bytes: await encode(pipeline) });
        break;
      }
      copies.push({
        width: copyWidth,
        bytes: await encode(
          pipeline.resize({ width: copyWidth, height: copyWidth * MAX_ASPECT, fit: 'inside' }),
        ),
      });
    }
    return copies;
  });
}

/**
 * Decodes the whole picture, shrunk on the way so even a 50-megapixel photo needs little memory, and
 * throws ImageRefusedError when it is not an image after all: a file that starts like a PNG or JPEG
 * and goes on with anything else (HTML, a script) is refused, whatever its first bytes said
 * (docs/rules/selling.md, Uploads and who sees a file). Pictures that get resized copies are decoded
 * by {@link makeImageCopies} instead.
 */
export function assertDecodableImage(bytes: Uint8Array): Promise<void> {
  return oneCheckAtATime(async () => {
    const sharp = await loadSharp();
    try {
      await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
        .resize({ width: 64, height: 64, fit: 'inside' })
        .raw({ depth: 'uchar' })
        .timeout({ seconds: TIMEOUT_SECONDS })
        .toBuffer();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/timeout/i.test(message)) throw error;
      throw new ImageRefusedError(
        /pixel limit/i.test(message) ? IMAGE_TOO_LARGE_MESSAGE : IMAGE_UNREADABLE_MESSAGE,
        { cause: error },
      );
    }
  });
}

/** What decides a copy's bytes: the library's version and the settings (a cache key for builds). */
export async function imageCopyRecipe(): Promise<string> {
  const sharp = await loadSharp();
  return JSON.stringify({
    // Raised when the way copies are made changes without a setting below changing.
    recipe: 2,
    sharp: sharp.versions.sharp,
    vips: sharp.versions.vips,
    widths: IMAGE_COPY_WIDTHS,
    quality: WEBP_QUALITY,
    maxAspect: MAX_ASPECT,
  });
}

/** The store key of a copy, beside its original: `uploads/<id>-w320`. */
export function copyKeyOf(originalKey: string, width: ImageCopyWidth): string {
  return `${originalKey}-w${width}`;
}
