// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SellerProduct } from '@domain/listings';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import type { AdminProductRow } from '../api/get-admin-products';
import { ProductsTab } from './products-tab';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const LAMP_ID = '10000000-0000-4000-8000-000000000001';

function product(overrides: Partial<AdminProductRow> = {}): AdminProductRow {
  return {
    id: LAMP_ID,
    name: 'Brass Lamp',
    category: 'Home',
    price: '40.00',
    stock: 3,
    available: true,
    imageUrl: null,
    sellerId: '20000000-0000-4000-8000-000000000001',
    sellerName: 'Sam Seller',
    createdAt: '2026-11-01T16:00:00.000Z',
    hidden: false,
    onSale: true,
    ...overrides,
  };
}

function sellerProduct(row: AdminProductRow): SellerProduct {
  return {
    id: row.id,
    sellerId: row.sellerId,
    name: row.name,
    description: null,
    price: row.price,
    imageUrl: null,
    category: row.category,
    stock: row.stock,
    available: row.available,
    requiresTrailer: false,
    sellerDelivery: false,
    sellerDeliveryFee: null,
    offerPickup: false,
    createdAt: row.createdAt,
    updatedAt: row.createdAt,
    imageUrls: [],
    hidden: row.hidden ?? false,
    sellerHidden: false,
  };
}

const pageOf = (...items: AdminProductRow[]) => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 10,
  pageCount: 1,
  totalIsLowerBound: false,
});

/** The products list and PATCH .../visibility, which changes what the list answers next. */
function productsServer(initial: AdminProductRow, visibility?: (hidden: boolean) => Response | undefined) {
  let row = initial;
  const sent: boolean[] = [];
  const fetchMock = mockFetch((url, init) => {
    if (url === `/api/admin/products/${LAMP_ID}/visibility` && init?.method === 'PATCH') {
      const { hidden } = JSON.parse(String(init.body)) as { hidden: boolean };
      sent.push(hidden);
      const refusal = visibility?.(hidden);
      if (refusal) return refusal;
      row = { ...row, hidden };
      return jsonResponse(sellerProduct(row));
    }
    if (url.startsWith('/api/admin/products')) return jsonResponse(pageOf(row));
    return undefined;
  });
  return { fetchMock, sent };
}

describe('moderating products (docs/rules/screens-work.md, Admin screens)', () => {
  it('hides a product only after a confirmation; it stays listed with a Hidden badge', async () => {
    const { sent } = productsServer(product());
    renderWithProviders(<ProductsTab categories={['Home']} />);
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Brass Lamp/ });
    expect(within(row).queryByText('Hidden')).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Hide product Brass Lamp' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Hide this product?' });
    expect(confirm).toHaveTextContent('“Brass Lamp” leaves the catalog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent).toEqual([]);

    await user.click(within(row).getByRole('button', { name: 'Hide product Brass Lamp' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Hide product' }),
    );
    expect(await screen.findByText('Brass Lamp is no longer in the catalog.')).toBeVisible();
    expect(sent).toEqual([true]);
    const hiddenRow = screen.getByRole('row', { name: /Brass Lamp/ });
    await waitFor(() => expect(within(hiddenRow).getByText('Hidden', { exact: true })).toBeVisible());
    expect(within(hiddenRow).getByRole('button', { name: 'Show product Brass Lamp' })).toBeEnabled();
  });

  it('shows a hidden product again at once', async () => {
    const { sent } = productsServer(product({ hidden: true }));
    renderWithProviders(<ProductsTab categories={['Home']} />);
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Brass Lamp/ });

    await user.click(within(row).getByRole('button', { name: 'Show product Brass Lamp' }));
    expect(await screen.findByText('Brass Lamp is back in the catalog.')).toBeVisible();
    expect(sent).toEqual([false]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(within(row).queryByText('Hidden', { exact: true })).toBeNull());
  });

  it("says the server's reason when hiding fails", async () => {
    productsServer(product(), () =>
      jsonResponse({ message: 'Product not found', code: 'not_found', requestId: 'r' }, 404),
    );
    renderWithProviders(<ProductsTab categories={['Home']} />);
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Brass Lamp/ });
    await user.click(within(row).getByRole('button', { name: 'Hide product Brass Lamp' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Hide product' }),
    );
    expect(await screen.findByText('Failed to hide product: Product not found')).toBeVisible();
  });

  it('marks a product whose seller may not sell as not on sale', async () => {
    productsServer(product({ onSale: false }));
    renderWithProviders(<ProductsTab categories={['Home']} />);
    const row = await screen.findByRole('row', { name: /Brass Lamp/ });
    expect(within(row).getByText('Not on sale', { exact: true })).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Hide product Brass Lamp' })).toBeEnabled();
  });

  it('opens the listing form through Edit, and exports what the filters show', async () => {
    productsServer(product());
    const onEdit = vi.fn();
    renderWithProviders(<ProductsTab categories={['Home']} onEdit={onEdit} />);
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Brass Lamp/ });

    await user.click(within(row).getByRole('button', { name: 'Edit Brass Lamp' }));
    expect(onEdit).toHaveBeenCalledWith(expect.objectContaining({ id: LAMP_ID }));

    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'lamp');
    const link = screen.getByRole('link', { name: 'Export CSV' });
    await waitFor(() =>
      expect(link).toHaveAttribute('href', '/api/admin/products.csv?search=lamp&status=all'),
    );
  });
});
