// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Address } from '@domain/addresses';
import type { ProductListItem } from '@domain/catalog';
import { AppRouter } from '../router';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
  signedInAs,
  type Route,
} from '../../test-support/render';
import { forgetCatalogFilters } from '../../features/catalog/use-catalog-filters';
import { makeProduct } from '../../features/catalog/testing/make-product';

installDomStubs();
beforeEach(() => forgetCatalogFilters());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const near = makeProduct({ name: 'Near Lamp', distance: 2.3 });
const far = makeProduct({ name: 'Far Sofa', distance: 120.4 });
const unlocated = makeProduct({ name: 'Somewhere Chair', distance: null, sellerCity: null });

function address(overrides: Partial<Address> = {}): Address {
  return {
    id: '00000000-0000-4000-8000-0000000000aa',
    userId: makeUser().id,
    addressLine1: '1060 W Addison St',
    addressLine2: null,
    city: 'Chicago',
    state: 'IL',
    zipCode: '60613',
    country: 'US',
    latitude: 41.95,
    longitude: -87.65,
    isVerified: true,
    isPrimary: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The catalog server: the plain list, and the distance list where maxDistance leaves out the far ones. */
function catalog(addresses: Address[], plainList: ProductListItem[] = [near, far, unlocated]): Route {
  return (url) => {
    if (url === '/api/categories') return jsonResponse([{ id: 'c1', name: 'Furniture' }]);
    if (url === '/api/addresses') return jsonResponse(addresses);
    const parsed = new URL(url, 'http://localhost');
    if (parsed.pathname === '/api/products/with-distance') {
      const max = parsed.searchParams.get('maxDistance');
      const rows = [near, far, unlocated].map((p) => ({ ...p }));
      return jsonResponse(
        max === null ? rows : rows.filter((p) => p.distance !== null && p.distance <= Number(max)),
      );
    }
    if (parsed.pathname === '/api/products') {
      return jsonResponse(plainList.map((p) => ({ ...p, distance: null })));
    }
    return undefined;
  };
}

function visitHome(...routes: Route[]) {
  const fetchMock = mockFetch(signedInAs(makeUser()), ...routes);
  window.history.replaceState(null, '', '/');
  renderWithProviders(<AppRouter />);
  const urls = () => fetchMock.mock.calls.map(([input]) => String(input));
  return { fetchMock, urls };
}

const grid = () => screen.getByTestId('product-grid');
const findInGrid = async (text: string | RegExp) =>
  within(await screen.findByTestId('product-grid')).findByText(text);
const names = () =>
  within(grid())
    .queryAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

function slider(): HTMLInputElement {
  const element = screen.getByRole('slider', { name: 'Maximum distance' });
  if (!(element instanceof HTMLInputElement)) throw new Error('not an input');
  return element;
}

// Whole pages render here, and a busy machine renders them slowly.
const PAGE_TEST = { timeout: 20_000 };

describe(
  'home page distance filter (docs/rules/catalog-and-orders.md, Catalog and distance)',
  PAGE_TEST,
  () => {
    it('starts at any distance, applies the slider 500 ms after it stops, and 500 means any again', async () => {
      const { urls } = visitHome(catalog([address()]));
      expect(await findInGrid('Near Lamp')).toBeVisible();
      expect(urls()).toContain('/api/products?limit=24&offset=0');
      expect(within(grid()).queryByText(/miles away/)).toBeNull();

      // On: the distance list without a limit, so every product shows its miles.
      // The switch is disabled while the buyer's addresses load, as a person sees it: wait for it.
      const toggle = await screen.findByRole('switch', { name: 'Filter by distance' });
      await waitFor(() => expect(toggle).toBeEnabled());
      fireEvent.click(toggle);
      expect(await findInGrid('2.3 miles away')).toBeVisible();
      expect(urls()).toContain('/api/products/with-distance?limit=24&offset=0');
      expect(slider().value).toBe('500');
      expect(screen.getByTestId('text-distance-value').textContent).toBe('Any distance');
      expect(names()).toEqual(['Near Lamp', 'Far Sofa', 'Somewhere Chair']);

      vi.useFakeTimers();
      fireEvent.change(slider(), { target: { value: '40' } });
      fireEvent.change(slider(), { target: { value: '5' } });
      // The value shows at once; the list waits for the pause.
      expect(screen.getByTestId('text-distance-value').textContent).toBe('5 miles');
      await act(() => vi.advanceTimersByTimeAsync(499));
      expect(urls().some((url) => url.includes('maxDistance'))).toBe(false);
      await act(() => vi.advanceTimersByTimeAsync(1));
      await act(() => vi.advanceTimersByTimeAsync(50));
      // Only the last value was asked for.
      expect(urls().filter((url) => url.includes('maxDistance'))).toEqual([
        '/api/products/with-distance?maxDistance=5&limit=24&offset=0',
      ]);
      expect(names()).toEqual(['Near Lamp']);

      // Back to 500: "Any distance", and the distance list without maxDistance again.
      fireEvent.change(slider(), { target: { value: '500' } });
      expect(screen.getByTestId('text-distance-value').textContent).toBe('Any distance');
      await act(() => vi.advanceTimersByTimeAsync(500));
      await act(() => vi.advanceTimersByTimeAsync(50));
      expect(names()).toEqual(['Near Lamp', 'Far Sofa', 'Somewhere Chair']);
      expect(urls().filter((url) => url.includes('maxDistance'))).toHaveLength(1);

      // Off: the plain list again, without miles.
      fireEvent.click(screen.getByRole('switch', { name: 'Filter by distance' }));
      await act(() => vi.advanceTimersByTimeAsync(50));
      expect(within(grid()).queryByText(/miles away/)).toBeNull();
    });

    it('says "Location not available" with a link to add an address without a located primary address', async () => {
      const { urls } = visitHome(
        catalog([address({ latitude: null, longitude: null }), address({ id: 'x', isPrimary: false })]),
      );
      expect(await screen.findByText('Location not available')).toBeVisible();
      expect(screen.getByRole('link', { name: 'Add an address' }).getAttribute('href')).toBe('/addresses');
      expect(screen.queryByRole('switch', { name: 'Filter by distance' })).toBeNull();
      expect(await findInGrid('Near Lamp')).toBeVisible();
      expect(urls().some((url) => url.includes('with-distance'))).toBe(false);
    });
  },
);

describe('home page grid (docs/rules/screens-buyer.md, Catalog screens)', PAGE_TEST, () => {
  it('pages through the catalog with "Load more" until a page comes back short', async () => {
    const all = Array.from({ length: 30 }, (_, i) => makeProduct({ name: `Item ${i + 1}` }));
    const { urls } = visitHome((url) => {
      if (url === '/api/categories') return jsonResponse([]);
      if (url === '/api/addresses') return jsonResponse([]);
      const parsed = new URL(url, 'http://localhost');
      if (parsed.pathname !== '/api/products') return undefined;
      const offset = Number(parsed.searchParams.get('offset'));
      const limit = Number(parsed.searchParams.get('limit'));
      return jsonResponse(all.slice(offset, offset + limit));
    });
    expect(await findInGrid('Item 24')).toBeVisible();
    expect(within(grid()).queryByText('Item 25')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await findInGrid('Item 30')).toBeVisible();
    expect(urls()).toContain('/api/products?limit=24&offset=24');
    expect(names()).toHaveLength(30);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says "Failed to fetch products" when the list cannot be read', async () => {
    visitHome((url) => {
      if (url === '/api/categories' || url === '/api/addresses') return jsonResponse([]);
      if (url.startsWith('/api/products')) return new Response('boom', { status: 500 });
      return undefined;
    });
    expect(await findInGrid('Failed to fetch products')).toBeVisible();
  });

  it('searches by name after a pause and filters by a category chip', async () => {
    const { urls } = visitHome(catalog([address()]));
    expect(await findInGrid('Near Lamp')).toBeVisible();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), {
      target: { value: 'lamp' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Furniture' }));
    await waitFor(() =>
      expect(urls()).toContain('/api/products?search=lamp&category=Furniture&limit=24&offset=0'),
    );
    expect(screen.getByRole('button', { name: 'Furniture' }).getAttribute('aria-pressed')).toBe('true');
  });
});
