// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ProductListItem } from '@domain/catalog';
import { installDomStubs, renderWithProviders } from '../../../test-support/render';
import { makeProduct } from '../testing/make-product';
import { ProductCard } from './product-card';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

function renderCard(overrides: Partial<ProductListItem> = {}) {
  const product = makeProduct(overrides);
  const onAdd = vi.fn();
  renderWithProviders(<ProductCard product={product} onAdd={onAdd} />);
  const byTestId = (name: string) => screen.queryByTestId(`${name}-${product.id}`);
  return { product, onAdd, byTestId };
}

function addButton(product: ProductListItem): HTMLButtonElement {
  const button = screen.getByRole('button', { name: `Add ${product.name} to cart` });
  if (!(button instanceof HTMLButtonElement)) throw new Error('not a button');
  return button;
}

describe('product card (docs/rules/screens-buyer.md, Catalog screens)', () => {
  it('shows the name, the price with 2 decimals, the seller and the rating with 1 decimal', () => {
    const { product, byTestId } = renderCard({ name: 'Oak Desk', price: '12.5', sellerRating: 4.25 });
    expect(screen.getByRole('link', { name: 'Oak Desk' }).getAttribute('href')).toBe(
      `/products/${product.id}`,
    );
    const card = screen.getByRole('article', { name: 'Oak Desk' });
    expect(within(card).getByText('$12.50')).toBeVisible();
    expect(byTestId('text-seller')?.textContent).toBe('Sam Seller');
    // The rating's words for a screen reader and its figure are one line of text.
    expect(
      within(card).getByText((_, element) => element?.textContent === 'Seller rating 4.3'),
    ).toBeVisible();
  });

  it('says "New seller" for a seller without a rating', () => {
    renderCard({ sellerRating: null });
    expect(within(screen.getByRole('article')).getByText('New seller')).toBeVisible();
  });

  it('shows "Available" and an enabled Add button for an available product in stock', () => {
    const { product, onAdd } = renderCard({ available: true, stock: 3 });
    const card = screen.getByRole('article', { name: product.name });
    expect(within(card).getByText('Available', { exact: true })).toBeVisible();
    expect(within(card).queryByText('Out of Stock')).toBeNull();
    fireEvent.click(addButton(product));
    expect(onAdd).toHaveBeenCalledWith(product);
  });

  it.each([
    ['stock 0', { available: true, stock: 0 }],
    ['not available', { available: false, stock: 4 }],
  ])('shows "Out of Stock" and disables Add when %s', (_case, overrides) => {
    const { product, onAdd } = renderCard(overrides);
    const card = screen.getByRole('article', { name: product.name });
    expect(within(card).getByText('Out of Stock', { exact: true })).toBeVisible();
    expect(within(card).queryByText('Available', { exact: true })).toBeNull();
    expect(addButton(product).disabled).toBe(true);
    fireEvent.click(addButton(product));
    expect(onAdd).not.toHaveBeenCalled();
  });

  it('shows the Trailer badge only when the product requires a trailer', () => {
    expect(renderCard({ requiresTrailer: true }).byTestId('badge-trailer')?.textContent).toBe('Trailer');
    expect(renderCard({ requiresTrailer: false }).byTestId('badge-trailer')).toBeNull();
  });

  it('shows the miles with 1 decimal when a distance is present, and nothing without one', () => {
    expect(renderCard({ distance: 3.04 }).byTestId('text-distance')?.textContent).toBe('3.0 miles away');
    expect(renderCard({ distance: 12.34 }).byTestId('text-distance')?.textContent).toBe('12.3 miles away');
    expect(renderCard({ distance: 0 }).byTestId('text-distance')?.textContent).toBe('0.0 miles away');
    expect(renderCard({ distance: null }).byTestId('text-distance')).toBeNull();
  });

  it('shows the location line only when both the city and the state exist', () => {
    expect(
      renderCard({ sellerCity: 'Evanston', sellerState: 'IL' }).byTestId('text-location')?.textContent,
    ).toBe('Evanston, IL');
    expect(renderCard({ sellerCity: 'Evanston', sellerState: null }).byTestId('text-location')).toBeNull();
    expect(renderCard({ sellerCity: null, sellerState: 'IL' }).byTestId('text-location')).toBeNull();
    expect(renderCard({ sellerCity: '  ', sellerState: 'IL' }).byTestId('text-location')).toBeNull();
  });

  it('shows the placeholder when the product has no image or its image fails to load', () => {
    const { product } = renderCard({ imageUrl: null });
    const card = screen.getByTestId(`card-product-${product.id}`);
    expect(card.querySelector('img')).toBeNull();
    expect(card.querySelector('svg[aria-hidden="true"][viewBox="0 0 160 120"]')).not.toBeNull();

    const withImage = renderCard({ imageUrl: '/objects/uploads/broken' }).product;
    const image = screen.getByTestId(`card-product-${withImage.id}`).querySelector('img');
    expect(image?.getAttribute('src')).toBe('/objects/uploads/broken');
    if (image) fireEvent.error(image);
    expect(screen.getByTestId(`card-product-${withImage.id}`).querySelector('img')).toBeNull();
  });
});
