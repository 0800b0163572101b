import { useState, type ComponentProps } from 'react';
import type { ListingFormDialog } from '../../features/seller/components/listing-form-dialog';
import { preloadableLazy } from '../../lib/preloadable-lazy';
import { Suspense } from '../../components/suspense';

type ListingDialogProps = Omit<ComponentProps<typeof ListingFormDialog>, 'renderImagesField'>;

/**
 * The listing form (Radix Dialog and Select, the listing schemas, the uploader's image editor) is
 * code a dashboard needs only once Create Listing or Edit is pressed: it is loaded apart from the
 * page, after the page is up, so it is neither fetched nor evaluated before hydration
 * (docs/decisions/0014-first-load.md, Dashboard parts that wait). Its images field is the uploader's
 * multi-image editor.
 */
const ListingDialogPart = preloadableLazy<ListingDialogProps>(async () => {
  const [{ ListingFormDialog: Dialog }, { ImageListEditor }] = await Promise.all([
    import('../../features/seller/components/listing-form-dialog'),
    import('../../features/uploads/components/image-list-editor'),
  ]);
  return function ListingDialogWithImages(props: ListingDialogProps) {
    return <Dialog {...props} renderImagesField={(field) => <ImageListEditor {...field} />} />;
  };
});

/** Loads the listing form's code ahead of its first opening. */
export const preloadListingDialog = ListingDialogPart.preload;

/**
 * The listing dialog, drawn from its first opening on (and kept, so it animates closed); a press
 * before its code has arrived opens it when the code does.
 */
export function LazyListingDialog(props: ListingDialogProps) {
  const [wasOpened, setWasOpened] = useState(props.target !== null);
  if (props.target !== null && !wasOpened) setWasOpened(true);
  if (!wasOpened) return null;
  return (
    <Suspense fallback={null}>
      <ListingDialogPart.Component {...props} />
    </Suspense>
  );
}
