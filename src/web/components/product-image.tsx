import { useState } from 'react';
import { cn } from '../lib/utils';
import { ProductImagePlaceholder } from './product-image-placeholder';

/**
 * Product pictures are 4:3 (the demo pictures are 400 × 300): the size the browser reserves before
 * the file arrives. Every frame a picture is shown in has its own size, so nothing moves either way.
 */
const PICTURE_WIDTH = 400;
const PICTURE_HEIGHT = 300;

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
}

/**
 * A product picture that falls back to the placeholder when missing or broken
 * (docs/product-rules.md, Client behaviour).
 */
export function ProductImage({ src, alt, className, isPriority = false }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);

  if (!src || failedSrc === src) {
    return <ProductImagePlaceholder className={className} label={alt} />;
  }
  return (
    <img
      src={src}
      alt={alt}
      width={PICTURE_WIDTH}
      height={PICTURE_HEIGHT}
      loading={isPriority ? 'eager' : 'lazy'}
      fetchPriority={isPriority ? 'high' : 'auto'}
      decoding="async"
      onError={() => setFailedSrc(src)}
      className={cn('size-full object-cover', className)}
    />
  );
}
