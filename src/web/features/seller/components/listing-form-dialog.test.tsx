// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SellerProduct } from '@domain/listings';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { dismissToasts } from '../../../components/ui/use-toast';
import * as navigation from '../../../lib/navigation';
import {
  ListingFormDialog,
  type ListingDialogTarget,
  type ListingImagesFieldProps,
} from './listing-form-dialog';

installDomStubs();
afterEach(() => {
  // The toast store outlives a test: the next one starts with none showing.
  act(() => dismissToasts());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PRODUCT_ID = '10000000-0000-4000-8000-000000000001';
const imagePath = (n: number) => `/objects/uploads/00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const tenImages = Array.from({ length: 10 }, (_, i) => imagePath(i + 1));

function sellerProduct(overrides: Partial<SellerProduct> = {}): SellerProduct {
  return {
    id: PRODUCT_ID,
    sellerId: '20000000-0000-4000-8000-000000000001',
    name: 'Oak Shelf',
    description: null,
    price: '40.00',
    imageUrl: null,
    category: 'Furniture',
    stock: 3,
    available: true,
    requiresTrailer: false,
    sellerDelivery: false,
    sellerDeliveryFee: null,
    offerPickup: false,
    createdAt: '2026-11-01T16:00:00.000Z',
    updatedAt: '2026-11-01T16:00:00.000Z',
    imageUrls: [],
    hidden: false,
    sellerHidden: false,
    ...overrides,
  };
}

const refusal = (status: number, message: string, fields?: Record<string, string>) =>
  jsonResponse(
    { message, code: status === 401 ? 'unauthorized' : 'bad_request', requestId: 'r', fields },
    status,
  );

interface ImageCall {
  method: string;
  url: string;
  imageUrl: string;
  displayOrder?: number;
}

/**
 * The product routes: POST /api/products, PATCH /api/products/{id}, and the image calls, each image
 * answered by `refuse` (a Response refuses it). The product answered grows with each saved image.
 */
function productServer(refuse: (imageUrl: string) => Response | undefined = () => undefined) {
  let product = sellerProduct();
  const imageCalls: ImageCall[] = [];
  const fetchMock = mockFetch((url, init) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (url === '/api/products' && init?.method === 'POST') return jsonResponse(product, 201);
    if (url === `/api/products/${PRODUCT_ID}` && init?.method === 'PATCH') return jsonResponse(product);
    if (url === `/api/products/${PRODUCT_ID}/image` && init?.method === 'PUT') {
      const imageUrl = String(body.imageUrl);
      imageCalls.push({ method: 'PUT', url, imageUrl });
      const refused = refuse(imageUrl);
      if (refused) return refused;
      product = { ...product, imageUrl, imageUrls: [imageUrl, ...product.imageUrls.slice(1)] };
      return jsonResponse(product);
    }
    if (url === `/api/products/${PRODUCT_ID}/images` && init?.method === 'POST') {
      const imageUrl = String(body.imageUrl);
      imageCalls.push({ method: 'POST', url, imageUrl, displayOrder: Number(body.displayOrder) });
      const refused = refuse(imageUrl);
      if (refused) return refused;
      product = { ...product, imageUrls: [...product.imageUrls, imageUrl] };
      return jsonResponse(product);
    }
    if (url === `/api/products/${PRODUCT_ID}/images` && init?.method === 'PUT') {
      const imageUrls = body.imageUrls as string[];
      imageCalls.push({ method: 'PUT', url, imageUrl: imageUrls.join(',') });
      const refused = imageUrls.map(refuse).find(Boolean);
      if (refused) return refused;
      product = { ...product, imageUrl: imageUrls[0] ?? null, imageUrls };
      return jsonResponse(product);
    }
    return undefined;
  });
  return { fetchMock, imageCalls, saved: () => product };
}

/** A stand-in for the uploader's editor: one button puts the given images in the form. */
function imagesField(images: readonly string[]) {
  return function renderImagesField({ value, onChange }: ListingImagesFieldProps) {
    return (
      <button type="button" onClick={() => onChange([...images])} data-testid="button-put-images">
        {value.length} images
      </button>
    );
  };
}

function renderDialog(target: ListingDialogTarget, images: readonly string[]) {
  const onClose = vi.fn();
  renderWithProviders(
    <ListingFormDialog
      target={target}
      onClose={onClose}
      categories={[{ id: 'c1', name: 'Furniture' }]}
      categoriesFailed={false}
      renderImagesField={imagesField(images)}
    />,
  );
  return { onClose };
}

async function createListingWith(images: readonly string[]) {
  const rendered = renderDialog({ mode: 'create' }, images);
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Oak Shelf' } });
  fireEvent.click(screen.getByTestId('button-put-images'));
  await screen.findByText(`${images.length} images`);
  fireEvent.click(screen.getByRole('button', { name: 'Create Listing' }));
  return rendered;
}

/** The toast on screen (Radix renders it as a list item of the viewport). */
async function shownToast(title: string) {
  const titleNode = await screen.findByText(title);
  const toast = titleNode.closest('li');
  if (!toast) throw new Error(`No toast around "${title}"`);
  return toast;
}

describe("a new listing's images (docs/rules/screens-work.md, Seller screens)", () => {
  it('saves the other nine when one is refused, and says which one was not', async () => {
    const server = productServer((imageUrl) =>
      imageUrl === imagePath(7) ? refusal(400, 'File is not an image') : undefined,
    );
    const { onClose } = await createListingWith(tenImages);

    const toast = await shownToast('The listing was saved, but 1 of its 10 images was not');
    expect(toast).toHaveTextContent('Image 7: File is not an image');
    expect(onClose).toHaveBeenCalled();
    // Every image was sent, the first as the main one, the rest in their places.
    expect(server.imageCalls.map((call) => [call.method, call.imageUrl])).toEqual(
      tenImages.map((url, i) => [i === 0 ? 'PUT' : 'POST', url]),
    );
    expect(server.saved().imageUrls).toEqual(tenImages.filter((url) => url !== imagePath(7)));
    expect(server.imageCalls.slice(1).map((call) => call.displayOrder)).toEqual([1, 2, 3, 4, 5, 6, 6, 7, 8]);
  });

  it('names each refused image', async () => {
    productServer((imageUrl) =>
      imageUrl === imagePath(3)
        ? refusal(400, 'File is not an image')
        : imageUrl === imagePath(9)
          ? refusal(400, 'Image is too large (at most 50 megapixels)')
          : undefined,
    );
    await createListingWith(tenImages);

    const toast = await shownToast('The listing was saved, but 2 of its 10 images were not');
    const lines = within(toast).getByTestId('text-unsaved-images');
    expect([...lines.children].map((line) => line.textContent)).toEqual([
      'Image 3: File is not an image',
      'Image 9: Image is too large (at most 50 megapixels)',
    ]);
  });

  it('makes the next saved image the main one when the first is refused', async () => {
    const server = productServer((imageUrl) =>
      imageUrl === imagePath(1) ? refusal(400, 'File is not an image') : undefined,
    );
    await createListingWith(tenImages.slice(0, 4));

    const toast = await shownToast('The listing was saved, but 1 of its 4 images was not');
    expect(toast).toHaveTextContent('Image 1: File is not an image');
    expect(server.imageCalls.map((call) => [call.method, call.imageUrl, call.displayOrder])).toEqual([
      ['PUT', imagePath(1), undefined],
      ['PUT', imagePath(2), undefined],
      ['POST', imagePath(3), 1],
      ['POST', imagePath(4), 2],
    ]);
    expect(server.saved().imageUrl).toBe(imagePath(2));
    expect(server.saved().imageUrls).toEqual([imagePath(2), imagePath(3), imagePath(4)]);
  });

  it('says the images were not saved when none was', async () => {
    productServer(() => refusal(400, 'File is not an image'));
    await createListingWith(tenImages.slice(0, 2));

    const toast = await shownToast('The listing was saved, but its images were not');
    expect(toast).toHaveTextContent('Image 1: File is not an image');
    expect(toast).toHaveTextContent('Image 2: File is not an image');
  });

  it('stops at a signed-out answer and signs in again', async () => {
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    const server = productServer((imageUrl) =>
      imageUrl === imagePath(2) ? refusal(401, 'Unauthorized') : undefined,
    );
    await createListingWith(tenImages.slice(0, 4));

    expect(await screen.findByText('You are logged out. Logging in again...')).toBeVisible();
    expect(server.imageCalls.map((call) => call.imageUrl)).toEqual([imagePath(1), imagePath(2)]);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/login'), { timeout: 1500 });
  });
});

describe("an edited listing's images (docs/rules/screens-work.md, Seller screens)", () => {
  it('names the image the server refused the list for', async () => {
    productServer((imageUrl) =>
      imageUrl === imagePath(7)
        ? refusal(400, 'Invalid request. imageUrls.6: File is not an image', {
            'imageUrls.6': 'File is not an image',
          })
        : undefined,
    );
    renderDialog(
      { mode: 'edit', product: sellerProduct({ imageUrl: imagePath(1), imageUrls: [imagePath(1)] }) },
      tenImages,
    );
    fireEvent.click(screen.getByTestId('button-put-images'));
    await screen.findByText('10 images');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    const toast = await shownToast('The listing was saved, but its images were not');
    expect(toast).toHaveTextContent('Image 7: File is not an image');
  });

  it("gives the server's reason when it names no image", async () => {
    productServer(() => refusal(409, 'This product is cancelled and can no longer be changed.'));
    renderDialog({ mode: 'edit', product: sellerProduct() }, tenImages.slice(0, 2));
    fireEvent.click(screen.getByTestId('button-put-images'));
    await screen.findByText('2 images');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    const toast = await shownToast('The listing was saved, but its images were not');
    expect(toast).toHaveTextContent('This product is cancelled and can no longer be changed.');
  });
});
