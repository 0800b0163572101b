// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ProductDetail, ProductImage } from '@domain/catalog';
import { AppRouter } from '../router';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
  signedInAs,
  signedOut,
  type Route,
} from '../../test-support/render';
import { makeProductDetail } from '../../features/catalog/testing/make-product';
import { CART_STORAGE_KEY } from '../../features/cart/cart-store';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const extraImages: ProductImage[] = [
  { id: 'i1', imageUrl: '/objects/uploads/side', displayOrder: 1 },
  { id: 'i2', imageUrl: '/objects/uploads/back', displayOrder: 2 },
];

function visitProduct(
  product: ProductDetail | null,
  id = product?.id ?? 'missing',
  viewer: Route = signedInAs(makeUser()),
) {
  const fetchMock = mockFetch(viewer, (url) => {
    if (url === `/api/products/${id}`) {
      return product
        ? jsonResponse(product)
        : jsonResponse({ message: 'Product not found', code: 'not_found', requestId: 'r' }, 404);
    }
    if (url === `/api/products/${id}/images` && product) return jsonResponse(product.images);
    // The seller's rating as a seller, and the signed-in buyer's (empty) conversation with them.
    if (url === `/api/reviews/user/${product?.sellerId}?as=seller`)
      return jsonResponse({ averageRating: 4.7, totalReviews: 3, reviews: [] });
    if (url === `/api/product-messages?productId=${id}`) return jsonResponse([]);
    return undefined;
  });
  window.history.replaceState(null, '', `/products/${id}`);
  renderWithProviders(<AppRouter />);
  return fetchMock;
}

const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('product detail (docs/rules/screens-buyer.md, Catalog screens)', { timeout: 20_000 }, () => {
  it('shows the product, its seller, stock, delivery and pickup, and adds it to the cart', async () => {
    const product = makeProductDetail({
      name: 'Walnut Bookshelf',
      price: '149.00',
      category: 'Furniture',
      description: 'Five shelves.',
      imageUrl: '/objects/uploads/front',
      images: extraImages,
      stock: 4,
      sellerName: 'Morgan Maker',
      sellerRating: 4.66,
      sellerCity: 'Oak Brook',
      sellerState: 'IL',
      distance: 14.2,
      offerPickup: true,
    });
    const fetchMock = visitProduct(product);
    expect(await screen.findByRole('heading', { level: 1, name: 'Walnut Bookshelf' })).toBeVisible();
    expect(screen.getByTestId('button-back').textContent).toBe('Back');
    expect(text('badge-available')).toBe('Available');
    expect(screen.queryByTestId('badge-trailer')).toBeNull();
    expect(text('text-product-price')).toBe('$149.00');
    expect(text('text-product-category')).toBe('Furniture');
    expect(text('text-product-description')).toBe('Five shelves.');
    // The seller's real rating and count, where the specification showed a placeholder.
    expect(await screen.findByText('4.7 (3 reviews)')).toBeVisible();
    expect(text('text-product-rating')).toBe('Seller rated 4.7 (3 reviews)');
    expect(text('text-product-stock')).toBe('4 in stock');

    const seller = screen.getByRole('region', { name: 'Seller information' });
    expect(within(seller).getByText('Morgan Maker')).toBeVisible();
    expect(within(seller).getByText('4.7')).toBeVisible();
    expect(within(seller).getByText('Oak Brook, IL')).toBeVisible();
    expect(within(seller).getByText('14.2 miles away')).toBeVisible();
    expect(within(seller).queryByRole('link')).toBeNull();

    expect(text('info-delivery')).toContain('Driver delivery$10.00');
    expect(text('info-pickup')).toContain('Pickup available');
    // A signed-in buyer writes to the seller in the message card (docs/rules/selling.md, Reviews and
    // messages).
    const card = screen.getByRole('region', { name: 'Message the seller' });
    expect(within(card).getByRole('heading', { name: 'Message the seller' })).toBeVisible();
    expect(await within(card).findByText(/No messages yet/)).toBeVisible();
    expect(within(card).getByRole('textbox', { name: 'Message to the seller' })).toBeVisible();
    expect(within(card).queryByText('Please log in to message the seller')).toBeNull();

    // The gallery: the main image, then the extra ones; a thumbnail chooses the large picture.
    const main = () => screen.getByTestId('product-main-image').querySelector('img');
    expect(main()?.getAttribute('src')).toBe('/objects/uploads/front');
    const thumbnails = screen.getByRole('list', { name: 'Images of Walnut Bookshelf' });
    expect(within(thumbnails).getAllByRole('button')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Show image 3 of 3' }));
    expect(main()?.getAttribute('src')).toBe('/objects/uploads/back');
    expect(main()?.getAttribute('alt')).toBe('Walnut Bookshelf, image 3 of 3');
    expect(screen.getByRole('button', { name: 'Show image 3 of 3' }).getAttribute('aria-current')).toBe(
      'true',
    );
    // A broken picture becomes the placeholder.
    const broken = main();
    if (broken) fireEvent.error(broken);
    expect(main()).toBeNull();
    expect(screen.getByRole('img', { name: 'Walnut Bookshelf, image 3 of 3' })).toBeVisible();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(`/api/products/${product.id}/images`);

    fireEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    const cart: unknown = JSON.parse(window.localStorage.getItem(CART_STORAGE_KEY) ?? '[]');
    expect(cart).toMatchObject([{ id: product.id, name: 'Walnut Bookshelf', price: '149.00', quantity: 1 }]);
    expect(screen.getByRole('link', { name: 'Continue Shopping' }).getAttribute('href')).toBe('/');
  });

  it.each([
    [{ requiresTrailer: true }, 'Trailer delivery$50.00A flat fee, whatever the distance'],
    [{ sellerDelivery: true, sellerDeliveryFee: '7.50' }, 'Seller delivery$7.50'],
  ])('describes the delivery of %o', async (overrides, expected) => {
    visitProduct(makeProductDetail({ name: 'Thing', ...overrides }));
    await screen.findByRole('heading', { level: 1, name: 'Thing' });
    expect(text('info-delivery')).toContain(expected);
    expect(text('info-pickup')).toContain('Pickup not offered');
  });

  it('disables Add to Cart for an unavailable product and says it is out of stock', async () => {
    visitProduct(
      makeProductDetail({
        name: 'Gone Lamp',
        stock: 0,
        requiresTrailer: true,
        sellerRating: null,
        sellerCity: null,
      }),
    );
    await screen.findByRole('heading', { level: 1, name: 'Gone Lamp' });
    expect(text('badge-out-of-stock')).toBe('Out of Stock');
    expect(text('badge-trailer')).toBe('Trailer');
    expect(text('text-product-stock')).toBe('Out of Stock');
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    expect(add instanceof HTMLButtonElement && add.disabled).toBe(true);
    const seller = screen.getByRole('region', { name: 'Seller information' });
    expect(within(seller).getByText('No reviews yet')).toBeVisible();
    expect(within(seller).getByText('Location not available')).toBeVisible();
    // One picture at most: the placeholder, and no thumbnails.
    expect(screen.getByRole('img', { name: 'Gone Lamp' })).toBeVisible();
    expect(screen.queryByRole('list', { name: /Images of/ })).toBeNull();
  });

  it('says a cancelled product is no longer available, whatever its stock, and offers no Add to Cart', async () => {
    const product = makeProductDetail({ name: 'Retired Vase', available: false, stock: 3 });
    visitProduct(product);
    await screen.findByRole('heading', { level: 1, name: 'Retired Vase' });
    expect(text('badge-no-longer-available')).toBe('No longer available');
    expect(text('text-product-stock')).toBe('This listing was cancelled and can no longer be bought.');
    expect(screen.queryByText(/Out of Stock|in stock/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add to Cart' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Continue Shopping' })).toBeVisible();
  });

  it('tells the seller their own cancelled product is no longer available, not what buyers see', async () => {
    const product = makeProductDetail({ name: 'My Old Chair', available: false, stock: 3 });
    visitProduct(
      product,
      product.id,
      signedInAs(makeUser({ id: product.sellerId, role: 'seller', roles: ['buyer', 'seller'] })),
    );
    await screen.findByRole('heading', { level: 1, name: 'My Old Chair' });
    expect(text('text-product-stock')).toBe('This listing was cancelled and can no longer be bought.');
    expect(screen.queryByTestId('text-own-product')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add to Cart' })).toBeNull();
  });

  it('says "Product not found" with a Back to Home button for a 404', async () => {
    const fetchMock = visitProduct(null, '00000000-0000-4000-8000-00000000dead');
    expect(await screen.findByRole('heading', { level: 1, name: 'Product not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    // The images are asked for only once the product exists.
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/images'))).toBe(false);
  });

  it('shows a visitor the product from a shared link, asks them to sign in to message the seller, and adds to the local cart', async () => {
    const product = makeProductDetail({ name: 'Shared Lamp', price: '1250.00', stock: 2 });
    visitProduct(product, product.id, signedOut);
    expect(await screen.findByRole('heading', { level: 1, name: 'Shared Lamp' })).toBeVisible();
    expect(text('text-product-price')).toBe('$1,250.00');
    expect(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(screen.getByText('Please log in to message the seller')).toBeVisible();
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    fireEvent.click(add);
    fireEvent.click(add);
    const cart: unknown = JSON.parse(window.localStorage.getItem(CART_STORAGE_KEY) ?? '[]');
    expect(cart).toMatchObject([{ id: product.id, quantity: 2, stock: 2 }]);
    // The whole stock is in the cart: Add stops there.
    expect(add instanceof HTMLButtonElement && add.disabled).toBe(true);
    expect(screen.getByTestId('text-all-in-cart').textContent).toBe('All 2 in stock are in your cart.');
  });

  it('does not let a seller buy their own product, and hides the message card from them', async () => {
    const product = makeProductDetail({ name: 'My Own Chair' });
    visitProduct(
      product,
      product.id,
      signedInAs(makeUser({ id: product.sellerId, role: 'seller', roles: ['buyer', 'seller'] })),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'My Own Chair' })).toBeVisible();
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    expect(add instanceof HTMLButtonElement && add.disabled).toBe(true);
    expect(screen.getByTestId('text-own-product').textContent).toBe(
      'This is your product: buyers see Add to Cart here.',
    );
    expect(screen.queryByText(/message/i)).toBeNull();
  });
});
