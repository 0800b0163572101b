// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { AdminProduct, AdminUser } from '@domain/admin';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { PayoutsTab } from './payouts-tab';
import { ProductsTab } from './products-tab';
import { UsersTab } from './users-tab';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const ADMIN_ID = '00000000-0000-4000-8000-0000000000aa';

function user(n: number): AdminUser {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    email: `user${n}@example.com`,
    firstName: `User${n}`,
    lastName: 'Person',
    profileImageUrl: null,
    role: 'buyer',
    roles: ['buyer'],
    isVerified: false,
    suspendedAt: null,
    withheldRoles: [],
    createdAt: '2026-11-01T16:00:00.000Z',
  };
}

function product(n: number): AdminProduct {
  return {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `Product ${n}`,
    category: 'Produce',
    price: '4.50',
    stock: n,
    available: true,
    hidden: false,
    onSale: true,
    imageUrl: null,
    sellerId: '20000000-0000-4000-8000-000000000001',
    sellerName: 'Sam Seller',
    createdAt: '2026-11-01T16:00:00.000Z',
  };
}

/** A list as the server pages it: 10 a page out of `total`. */
function pageOf<T>(make: (n: number) => T, page: number, total: number, totalIsLowerBound = false) {
  const first = (page - 1) * 10 + 1;
  const count = Math.max(0, Math.min(10, total - first + 1));
  return {
    items: Array.from({ length: count }, (_, i) => make(first + i)),
    total,
    page,
    pageSize: 10,
    pageCount: Math.ceil(total / 10),
    totalIsLowerBound,
  };
}

/** The table holding a row: its caption (its accessible name), column headings and row count. */
function tableOf(row: HTMLElement) {
  const table = row.closest('table');
  return {
    caption: table?.querySelector('caption')?.textContent,
    headings: [...(table?.querySelectorAll('thead th') ?? [])].map((th) => th.textContent),
    rows: table?.querySelectorAll('tbody tr').length,
  };
}

const requested = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([url]) => String(url));

const route = (path: string, answer: (params: URLSearchParams) => Response) => (url: string) =>
  url.startsWith(path) ? answer(new URL(url, 'http://x').searchParams) : undefined;

describe('an admin list (docs/rules/screens-work.md, Admin screens)', () => {
  it('says "1,000+" and "100+" when a search matched more rows than were counted', async () => {
    mockFetch(route('/api/admin/products', () => jsonResponse(pageOf(product, 1, 1000, true))));
    renderWithProviders(<ProductsTab categories={['Produce']} />);

    expect(await screen.findByText('Showing 1–10 of 1,000+')).toBeVisible();
    expect(screen.getByText(/^Page \d+ of/)).toHaveTextContent('Page 1 of 100+');
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('shows the range, the column headings and a pager that asks for the next page', async () => {
    const fetchMock = mockFetch(
      route('/api/admin/products', (params) => jsonResponse(pageOf(product, Number(params.get('page')), 12))),
    );
    renderWithProviders(<ProductsTab categories={['Produce']} />);

    expect(await screen.findByText('Showing 1–10 of 12')).toBeVisible();
    expect(tableOf(screen.getByRole('row', { name: new RegExp(`^${product(1).name}(?!\\d)`) }))).toEqual({
      caption: 'Products',
      headings: ['Product', 'Category', 'Seller', 'Price', 'Stock', 'Status', 'Actions'],
      rows: 10,
    });
    expect(screen.getByText('Price')).toHaveClass('text-right');
    const pageText = screen.getByText(/^Page \d+ of/);
    expect(pageText).toHaveTextContent('Page 1 of 2');
    expect(pageText.closest('nav')).toHaveAttribute('aria-label', 'Products pages');

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 11–12 of 12')).toBeVisible();
    expect(screen.getByText(/^Page \d+ of/)).toHaveTextContent('Page 2 of 2');
    expect(requested(fetchMock)).toContain('/api/admin/products?status=all&page=2');
  });

  it('searches from the labelled search box and starts again at page 1', async () => {
    const fetchMock = mockFetch(
      route('/api/admin/products', (params) =>
        jsonResponse(
          params.get('search') ? pageOf(product, 1, 1) : pageOf(product, Number(params.get('page')), 12),
        ),
      ),
    );
    renderWithProviders(<ProductsTab categories={['Produce']} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 11–12 of 12')).toBeVisible();

    const search = screen.getByRole('searchbox', { name: 'Search products' });
    expect(search).toHaveAccessibleName('Search products');
    expect(search).toHaveAttribute('placeholder', 'Search by product name');
    fireEvent.change(search, { target: { value: 'Product 1' } });
    expect(await screen.findByText('Showing 1–1 of 1', {}, { timeout: 3000 })).toBeVisible();
    expect(requested(fetchMock)).toContain('/api/admin/products?search=Product+1&status=all&page=1');
    expect(screen.queryByText(/^Page \d+ of/)).toBeNull();
    const categoryFilter = screen.getByRole('combobox', { name: 'Filter by category' });
    expect(categoryFilter).toHaveAttribute('aria-label', 'Filter by category');
    expect(categoryFilter).toHaveTextContent('All categories');
    const statusFilter = screen.getByRole('combobox', { name: 'Filter by status' });
    expect(statusFilter).toHaveAttribute('aria-label', 'Filter by status');
    expect(statusFilter).toHaveTextContent('All statuses');
  });

  it('says when nothing matches', async () => {
    mockFetch(route('/api/admin/users', () => jsonResponse(pageOf(user, 1, 0))));
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    expect(await screen.findByText('No users found')).toBeVisible();
    expect(document.querySelector('table')).toBeNull();
    expect(screen.queryByText(/^Showing/)).toBeNull();
  });

  it('says what could not be loaded, and Try Again asks again', async () => {
    let failing = true;
    mockFetch(
      route('/api/admin/users', () =>
        failing
          ? jsonResponse({ message: 'Something went wrong', code: 'internal', requestId: 'r' }, 500)
          : jsonResponse(pageOf(user, 1, 3)),
      ),
    );
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading users...');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The users could not be loaded.');

    failing = false;
    fireEvent.click(within(alert).getByText('Try Again'));
    expect(await screen.findByText('Showing 1–3 of 3')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  const refusedPayout = {
    id: '30000000-0000-4000-8000-000000000001',
    orderId: '40000000-0000-4000-8000-000000000001',
    orderNumber: 'ORD-PAY1',
    userName: 'Sam Seller',
    kind: 'seller' as const,
    amount: '9.50',
    status: 'refused' as const,
    lastError: 'Account closed',
    attempts: 5,
    refusals: 5,
    nextAttemptAt: null,
    refusedShare: null,
    createdAt: '2026-11-01T16:00:00.000Z',
    paidAt: null,
    reversedAt: null,
  };

  it('shows a list that is not paged in the same table, without range or pager', async () => {
    mockFetch((url) =>
      url === '/api/admin/payouts'
        ? jsonResponse({ platformBalance: '12.00', owedPayouts: '3.00', failed: [refusedPayout], losses: [] })
        : undefined,
    );
    renderWithProviders(<PayoutsTab />);
    const row = await screen.findByRole('row', { name: /^ORD-PAY1/ });
    expect(tableOf(row)).toEqual({
      caption: 'Payouts that failed or keep failing',
      headings: ['Order', 'Paid to', 'Amount', 'Status', 'Problem', 'Attempts', 'Since', 'Actions'],
      rows: 1,
    });
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'ORD-PAY1',
      'Sam Seller (seller)',
      '$9.50',
      'Refused',
      'Account closed',
      '5',
      expect.stringContaining('Nov 1, 2026'),
      'Retry Payout',
    ]);
    expect(screen.queryByText(/^Showing/)).toBeNull();
    expect(screen.queryByText(/^Page \d+ of/)).toBeNull();
    expect(screen.getByRole('region', { name: 'Platform Balance' })).toHaveTextContent('$12.00');
  });

  it('sends a refused payout again when the admin presses Retry Payout', async () => {
    let sent = false;
    const fetchMock = mockFetch((url, init) => {
      if (url === `/api/admin/payouts/${refusedPayout.id}/retry` && init?.method === 'POST') {
        sent = true;
        return jsonResponse({ ...refusedPayout, status: 'paid', refusals: 0, lastError: null });
      }
      if (url === '/api/admin/payouts')
        return jsonResponse({
          platformBalance: '12.00',
          owedPayouts: sent ? '0.00' : '9.50',
          failed: sent ? [] : [refusedPayout],
          losses: [],
        });
      return undefined;
    });
    renderWithProviders(<PayoutsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Retry payout of ORD-PAY1 to Sam Seller' }));
    expect(await screen.findByText('No payout has failed')).toBeVisible();
    expect(
      fetchMock.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
    ).toHaveLength(1);
  });
});
