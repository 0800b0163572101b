import { useState } from 'react';
import { imageSrcSet } from '@domain/image-copies';
import { cn } from '../lib/utils';
import { ProductImagePlaceholder } from './product-image-placeholder';

/**
 * Product pictures are 4:3 (the demo pictures are 400 × 300): the size the browser reserves before
 * the file arrives. Every frame a picture is shown in has its own size, so nothing moves either way.
 */
const PICTURE_WIDTH = 400;
const PICTURE_HEIGHT = 300;

/**
 * How wide a thumbnail's picture is drawn: the largest thumbnail frame is 80 CSS px square, and a
 * 4:3 picture covering a square is drawn 4/3 as wide as it. With the `srcset` of the picture's copies
 * (docs/decisions/0014-first-load.md, Resized copies) a phone then downloads the 160 or 320 copy.
 */
const THUMBNAIL_SIZES = '107px';

interface ProductImageProps {
  src: string | null | undefined;
  /** '' when the product's name is already next to the image (the picture is then decorative). */
  alt: string;
  className?: string;
  /**
   * The largest picture above the fold (the product's own, the catalog's first): fetched first and
   * at once. Every other picture waits until it is near the screen
   * (docs/decisions/0014-first-load.md).
   */
  isPriority?: boolean;
  /**
   * The `sizes` of the picture's copies: how wide it is drawn, in CSS px or vw, for each layout
   * (a thumbnail's by default).
   */
  sizes?: string;
}

/**
 * A product picture that falls back to the placeholder when missing or broken
 * (docs/product-rules.md, Client behaviour). An uploaded picture offers its resized copies
 * (`srcset`); should they fail to load (a server without them), the original is tried before the
 * placeholder.
 */
export function ProductImage({
  src,
  alt,
  className,
  isPriority = false,
  sizes = THUMBNAIL_SIZES,
}: ProductImageProps) {
  const [failure, setFailure] = useState<{ src: string; isFinal: boolean } | null>(null);

  if (!src || (failure?.src === src && failure.isFinal)) {
    return <ProductImagePlaceholder className={className} label={alt} />;
  }
  const srcSet = failure?.src === src ? undefined : imageSrcSet(src);
  return (
    <img
      // A new element when the copies are given up, so the browser forgets the failed choice.
      key={srcSet ? 'copies' : 'original'}
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      width={PICTURE_WIDTH}
      height={PICTURE_HEIGHT}
      loading={isPriority ? 'eager' : 'lazy'}
      fetchPriority={isPriority ? 'high' : 'auto'}
      decoding="async"
      onError={() => setFailure({ src, isFinal: !srcSet })}
      className={cn('size-full object-cover', className)}
    />
  );
}
