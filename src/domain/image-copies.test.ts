import { describe, expect, it } from 'vitest';
import { IMAGE_COPY_WIDTHS, imageCopyUrl, imageSrcSet, widthOfImageCopyName } from './image-copies';
import { uploadCopyParamsSchema } from './uploads';

const UPLOAD = '/objects/uploads/0b5c8a36-3c1e-4b8e-9d43-6b2f7c1e9a10';

describe('resized copies of pictures (docs/decisions/0014-first-load.md, Resized copies)', () => {
  it('names one copy for each width, and reads the width back', () => {
    const copyName = uploadCopyParamsSchema.shape.copy;
    expect(copyName.options).toEqual(IMAGE_COPY_WIDTHS.map((width) => `w${width}`));
    for (const width of IMAGE_COPY_WIDTHS) {
      expect(widthOfImageCopyName(copyName.parse(`w${width}`))).toBe(width);
    }
    expect(copyName.safeParse('w999').success).toBe(false);
  });

  it('derives the copies of an upload from its path, and none for other addresses', () => {
    expect(imageCopyUrl(UPLOAD, 320)).toBe(`${UPLOAD}/w320`);
    expect(imageSrcSet(UPLOAD)).toBe(
      `${UPLOAD}/w160 160w, ${UPLOAD}/w320 320w, ${UPLOAD}/w640 640w, ${UPLOAD}/w1280 1280w`,
    );
    for (const other of ['https://example.com/a.jpg', `${UPLOAD}/w320`, '/objects/uploads/nope', ''])
      expect([imageCopyUrl(other, 320), imageSrcSet(other)]).toEqual([null, undefined]);
  });
});
