import { useState } from 'react';
import { PRODUCT_PAGE_IMAGE_SIZES } from '@domain/image-copies';
import { ProductImage } from '../../../components/product-image';
import { cn } from '../../../lib/utils';

interface ProductGalleryProps {
  name: string;
  /** The main image first, then the extra ones; empty shows the placeholder. */
  imageUrls: readonly string[];
}

/**
 * The product's pictures (docs/rules/screens-buyer.md, Catalog screens): one large image and, when there are
 * several, a row of thumbnails that choose it. A picture that fails to load is replaced by the
 * placeholder (docs/rules/screens-buyer.md, Catalog screens).
 */
export function ProductGallery({ name, imageUrls }: ProductGalleryProps) {
  const [selected, setSelected] = useState(0);
  const index = selected < imageUrls.length ? selected : 0;
  const count = imageUrls.length;

  return (
    <div className="flex flex-col gap-3" data-testid="product-gallery">
      {/*
        The frame has the pictures' 4:3 shape and the picture is contained in it, so none of it is
        cropped; one of another shape shows whole, with the frame's background beside it.
      */}
      <div
        className="aspect-[4/3] overflow-hidden rounded-xl border bg-muted"
        data-testid="product-main-image"
      >
        <ProductImage
          isPriority
          className="object-contain"
          sizes={PRODUCT_PAGE_IMAGE_SIZES}
          src={imageUrls[index]}
          alt={count > 1 ? `${name}, image ${index + 1} of ${count}` : name}
        />
      </div>
      {count > 1 ? (
        <ul className="grid grid-cols-5 gap-2 sm:grid-cols-6" aria-label={`Images of ${name}`}>
          {imageUrls.map((url, i) => (
            <li key={url}>
              <button
                type="button"
                onClick={() => setSelected(i)}
                aria-label={`Show image ${i + 1} of ${count}`}
                aria-current={i === index ? 'true' : undefined}
                className={cn(
                  'block aspect-square w-full overflow-hidden rounded-md border-2 bg-muted transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
                  i === index ? 'border-primary' : 'border-transparent opacity-80 hover:opacity-100',
                )}
              >
                {/* A fifth of the gallery on a phone, a sixth of at most 592 px beside the details. */}
                <ProductImage src={url} alt="" sizes="(min-width: 1024px) 123px, 27vw" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
