import { useState } from 'react';
import { cn } from '../lib/utils';
import { ProductImagePlaceholder } from './product-image-placeholder';

interface ProductImageProps {
  src: string | null | undefined;
  /** '' when the product's name is already next to the image (the picture is then decorative). */
  alt: string;
  className?: string;
}

/**
 * A product picture that falls back to the placeholder when missing or broken
 * (docs/product-rules.md, Client behaviour).
 */
export function ProductImage({ src, alt, className }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);

  if (!src || failedSrc === src) {
    return <ProductImagePlaceholder className={className} label={alt} />;
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setFailedSrc(src)}
      className={cn('size-full object-cover', className)}
    />
  );
}
