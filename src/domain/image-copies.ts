import { uploadIdOfObjectPath } from './upload-paths';

/**
 * Resized copies of product pictures (docs/decisions/0014-first-load.md, Resized copies): WebP,
 * these widths in pixels, made when a picture is attached to a product (demo pictures at build).
 * A phone's card (about 360 CSS px at a device pixel ratio near 2) takes the 640; cart and gallery
 * thumbnails the 160 or 320; the product page on a wide screen the 1280. A copy is never wider
 * than its original.
 */
export const IMAGE_COPY_WIDTHS = [160, 320, 640, 1280] as const;
export type ImageCopyWidth = (typeof IMAGE_COPY_WIDTHS)[number];

/**
 * The last part of a copy's address: `w320` (the format is the server's choice, WebP today). The
 * route's schema is `uploadCopyParamsSchema` in uploads.ts; this module stays free of zod, as the
 * browser's first load uses it.
 */
export type ImageCopyName = `w${ImageCopyWidth}`;

/** The width a copy name stands for (`w320` → 320). */
export function widthOfImageCopyName(name: ImageCopyName): ImageCopyWidth {
  const width = IMAGE_COPY_WIDTHS.find((candidate) => `w${candidate}` === name);
  if (width === undefined) throw new Error(`Not a copy name: ${name}`);
  return width;
}

/**
 * Where the copy of an uploaded picture is read: `/objects/uploads/<id>/w<width>`. Every such
 * address answers, with the copy or, when it is missing (an upload older than copies, a resize that
 * failed), with the original: the browser needs no list of which copies exist. Null for a picture
 * that is not an upload of this marketplace.
 */
export function imageCopyUrl(imageUrl: string, width: ImageCopyWidth): string | null {
  return uploadIdOfObjectPath(imageUrl) ? `${imageUrl}/w${width}` : null;
}

/** The `srcset` of a picture's copies, or undefined when it has none (not an upload). */
export function imageSrcSet(imageUrl: string): string | undefined {
  if (!uploadIdOfObjectPath(imageUrl)) return undefined;
  return IMAGE_COPY_WIDTHS.map((width) => `${imageUrl}/w${width} ${width}w`).join(', ');
}

/**
 * The `sizes` of the product page's main picture, shared by the page and the `<link rel=preload>`
 * of its HTML, which must name the same copy. The frame is 4:3 like the pictures and the picture is
 * contained in it (never cropped), so it is drawn as wide as its frame: the page's width less its
 * padding on a phone, half of at most 1280 px less the gap (592 px) beside the details from 1024 px up.
 */
export const PRODUCT_PAGE_IMAGE_SIZES = '(min-width: 1024px) 592px, calc(100vw - 32px)';
