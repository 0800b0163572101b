import { useEffect, useRef, useState } from 'react';
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
 * (docs/rules/screens-shared.md, Client behaviour). An uploaded picture offers its resized copies
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
  const imageRef = useRef<HTMLImageElement>(null);
  const isPlaceholder = !src || (failure?.src === src && failure.isFinal);
  const srcSet = !src || failure?.src === src ? undefined : imageSrcSet(src);

  // A page the server rendered starts loading its pictures before React listens to them: one that
  // failed before the page hydrated has sent its error event to nobody. A finished load without a
  // picture is that failure (docs/rules/screens-shared.md, Client behaviour).
  useEffect(() => {
    const image = imageRef.current;
    if (!src || isPlaceholder || !image) return;
    if (image.complete && image.naturalWidth === 0) setFailure({ src, isFinal: !srcSet });
  }, [src, srcSet, isPlaceholder]);

  if (isPlaceholder) {
    return <ProductImagePlaceholder className={className} label={alt} />;
  }
  return (
    <img
      // A new element when the copies are given up, so the browser forgets the failed choice.
      key={srcSet ? 'copies' : 'original'}
      ref={imageRef}
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
