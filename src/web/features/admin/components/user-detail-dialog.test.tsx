// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminOrder, AdminUser, AdminUserDetail } from '@domain/admin';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
  type Route,
} from '../../../test-support/render';
import { UsersTab } from './users-tab';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const ADMIN_ID = '00000000-0000-4000-8000-0000000000aa';
const SAM_ID = '00000000-0000-4000-8000-000000000001';

const sam: AdminUser = {
  id: SAM_ID,
  email: 'sam@example.com',
  firstName: 'Sam',
  lastName: 'Seller',
  profileImageUrl: null,
  role: 'seller',
  roles: ['buyer', 'seller'],
  isVerified: false,
  suspendedAt: null,
  withheldRoles: [],
  createdAt: '2026-11-01T16:00:00.000Z',
};

function order(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    id: '40000000-0000-4000-8000-000000000001',
    orderNumber: 'ORD-1001',
    status: 'pending',
    isPickup: false,
    sellerDelivery: false,
    total: '24.50',
    platformFee: '2.45',
    buyerName: 'Bea Buyer',
    sellerName: 'Sam Seller',
    flag: null,
    createdAt: '2026-11-20T16:00:00.000Z',
    ...overrides,
  };
}

function detailOf(user: AdminUser, overrides: Partial<AdminUserDetail> = {}): AdminUserDetail {
  return {
    ...user,
    suspendedAt: null,
    twoFactorEnabled: false,
    driver: { isVerified: false, hasVehicleImage: true, hasLicenseImage: false, hasTrailerImage: false },
    payouts: { stripeAccountStatus: 'active', onboardingComplete: true, payoutsEnabled: true },
    addressCount: 2,
    orders: {
      asBuyer: { count: 0, latest: [] },
      asSeller: { count: 12, latest: [order({ flag: 'Seller suspended' })] },
      asDriver: { count: 0, latest: [] },
    },
    ...overrides,
  };
}

const listOf = (...users: AdminUser[]) => ({
  items: users,
  total: users.length,
  page: 1,
  pageSize: 10,
  pageCount: 1,
  totalIsLowerBound: false,
});

/** The server's moderated user: the account as its owner sees it, and its suspension. */
const moderated = (user: AdminUser, suspendedAt: string | null) => ({
  ...makeUser({ ...user }),
  suspendedAt,
  withheldRoles: [],
});

const refused = (message: string, status: number) =>
  jsonResponse({ message, code: status === 409 ? 'conflict' : 'forbidden', requestId: 'r' }, status);

/** The users list and the detail of each user, as they are now on the "server". */
function adminServer(state: {
  users: (AdminUser & { suspendedAt?: string | null })[];
  details: Map<string, AdminUserDetail>;
}): Route {
  return (url, init) => {
    if ((init?.method ?? 'GET') !== 'GET') return undefined;
    if (url.startsWith('/api/admin/users?') || url === '/api/admin/users')
      return jsonResponse(listOf(...state.users));
    const match = /^\/api\/admin\/users\/([^/?]+)$/.exec(url);
    const detail = match?.[1] ? state.details.get(match[1]) : undefined;
    return detail ? jsonResponse(detail) : undefined;
  };
}

async function openDetails(name: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Details of ${name}` }));
  const dialog = await screen.findByRole('dialog', { name });
  await within(dialog).findByRole('heading', { name: 'Roles' });
  return { user, dialog };
}

describe("a user's details (docs/rules/screens-work.md, Admin screens)", () => {
  it('shows the roles, verification, payouts, addresses and orders as buyer, seller and driver', async () => {
    mockFetch(adminServer({ users: [sam], details: new Map([[SAM_ID, detailOf(sam)]]) }));
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    const { dialog } = await openDetails('Sam Seller');

    expect(within(dialog).getByText('sam@example.com')).toBeVisible();
    expect(within(dialog).getByText('Active', { exact: true })).toBeVisible();
    const roles = within(dialog).getByRole('list', { name: 'Granted roles' });
    expect(
      within(roles)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Buyer', 'Seller (current)Remove seller role']);
    // Everyone keeps buyer.
    expect(within(dialog).queryByRole('button', { name: 'Remove buyer role' })).toBeNull();
    expect(within(dialog).getByRole('combobox', { name: 'Current role of Sam Seller' })).toHaveTextContent(
      'Seller',
    );
    expect(within(dialog).getByText('Not verified')).toBeVisible();
    expect(within(dialog).getByText('Vehicle image on file')).toBeVisible();
    expect(within(dialog).getByText('Active, payouts enabled')).toBeVisible();
    expect(within(dialog).getByText('2 addresses')).toBeVisible();

    const asSeller = within(dialog).getByRole('region', { name: /^As seller/ });
    expect(asSeller).toHaveTextContent('As seller · 12 orders');
    const row = within(asSeller).getByRole('listitem');
    expect(row).toHaveTextContent('ORD-1001');
    expect(row).toHaveTextContent('$24.50');
    expect(within(row).getByText('Seller suspended')).toBeVisible();
    expect(asSeller).toHaveTextContent('The 1 newest of 12');
    expect(within(dialog).getByRole('region', { name: /^As buyer/ })).toHaveTextContent(
      'As buyer · 0 orders',
    );
  });

  it('removes a role, says so and reads the user and the list again', async () => {
    const state = { users: [sam], details: new Map([[SAM_ID, detailOf(sam)]]) };
    const buyerAgain: AdminUser = { ...sam, role: 'buyer', roles: ['buyer'], withheldRoles: ['seller'] };
    const fetchMock = mockFetch((url, init) => {
      if (url === `/api/admin/users/${SAM_ID}/roles/seller` && init?.method === 'DELETE') {
        state.users = [buyerAgain];
        state.details.set(SAM_ID, detailOf(buyerAgain));
        return jsonResponse(moderated(buyerAgain, null));
      }
      return undefined;
    }, adminServer(state));
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    const { user, dialog } = await openDetails('Sam Seller');

    await user.click(within(dialog).getByRole('button', { name: 'Remove seller role' }));
    expect(await screen.findByText('Sam Seller is no longer a seller.')).toBeVisible();
    await waitFor(() =>
      expect(within(dialog).queryByRole('button', { name: 'Remove seller role' })).toBeNull(),
    );
    expect(within(dialog).getByRole('combobox', { name: 'Current role of Sam Seller' })).toHaveTextContent(
      'Buyer',
    );
    // The details say the user cannot take it back by themself.
    expect(within(dialog).getByText(/Taken away by an admin: Seller\./)).toBeVisible();
    // The list behind the open dialog is hidden from assistive technology until it closes.
    const row = screen.getByRole('row', { name: /sam@example\.com/, hidden: true });
    // The row's granted roles no longer hold Seller.
    await waitFor(() => expect(within(row).queryByText('Seller')).toBeNull());
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url) === `/api/admin/users/${SAM_ID}`).length,
    ).toBeGreaterThan(1);
  });

  it("shows the server's reason when a role cannot be taken away", async () => {
    const admin2: AdminUser = { ...sam, role: 'admin', roles: ['buyer', 'admin'] };
    mockFetch(
      (url, init) =>
        init?.method === 'DELETE' && url === `/api/admin/users/${SAM_ID}/roles/admin`
          ? refused('The last admin cannot lose the admin role.', 409)
          : undefined,
      adminServer({ users: [admin2], details: new Map([[SAM_ID, detailOf(admin2)]]) }),
    );
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    const { user, dialog } = await openDetails('Sam Seller');

    await user.click(within(dialog).getByRole('button', { name: 'Remove admin role' }));
    expect(
      await screen.findByText('Failed to remove role: The last admin cannot lose the admin role.'),
    ).toBeVisible();
  });

  it('suspends only after a confirmation, then shows Suspended and offers Restore', async () => {
    const state = { users: [sam], details: new Map([[SAM_ID, detailOf(sam)]]) };
    const suspendedAt = '2026-11-26T15:00:00.000Z';
    const fetchMock = mockFetch((url, init) => {
      if (url === `/api/admin/users/${SAM_ID}/suspend` && init?.method === 'POST') {
        state.details.set(SAM_ID, detailOf(sam, { suspendedAt }));
        state.users = [{ ...sam, suspendedAt }];
        return jsonResponse(moderated(sam, suspendedAt));
      }
      return undefined;
    }, adminServer(state));
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    const { user, dialog } = await openDetails('Sam Seller');

    await user.click(within(dialog).getByRole('button', { name: 'Suspend user' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Suspend this user?' });
    expect(confirm).toHaveTextContent('signed out at once');
    // Cancel sends nothing.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/suspend'))).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Suspend user' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Suspend user' }),
    );
    expect(await screen.findByText('Sam Seller was signed out and cannot sign in.')).toBeVisible();
    await waitFor(() => expect(within(dialog).getByText('Suspended', { exact: true })).toBeVisible());
    expect(within(dialog).getByRole('button', { name: 'Restore user' })).toBeEnabled();
    // Close leaves the details (Escape would first close the toast, the top layer).
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The list, read again, says so too.
    expect(
      await within(screen.getByRole('row', { name: /sam@example\.com/ })).findByText('Suspended', {
        exact: true,
      }),
    ).toBeVisible();
  });

  it("restores after a confirmation, and says the server's reason when it refuses", async () => {
    const suspended = detailOf(sam, { suspendedAt: '2026-11-26T15:00:00.000Z' });
    mockFetch(
      (url, init) =>
        url === `/api/admin/users/${SAM_ID}/restore` && init?.method === 'POST'
          ? refused('You must be an admin to do this', 403)
          : undefined,
      adminServer({ users: [sam], details: new Map([[SAM_ID, suspended]]) }),
    );
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    const { user, dialog } = await openDetails('Sam Seller');

    expect(within(dialog).getByText('Suspended', { exact: true })).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Restore user' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Restore this user?' });
    await user.click(within(confirm).getByRole('button', { name: 'Restore user' }));
    expect(await screen.findByText('Failed to restore user: You must be an admin to do this')).toBeVisible();
  });

  it("offers no moderation on the admin's own row", async () => {
    const me: AdminUser = { ...sam, id: ADMIN_ID, role: 'admin', roles: ['buyer', 'admin'] };
    mockFetch(adminServer({ users: [me], details: new Map([[ADMIN_ID, detailOf(me)]]) }));
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    const { dialog } = await openDetails('Sam Seller');

    expect(within(dialog).getByText(/This is you/)).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'Remove admin role' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Suspend user' })).toBeNull();
    expect(within(dialog).getByRole('combobox', { name: 'Current role of Sam Seller' })).toBeDisabled();
  });
});

describe('the users list', () => {
  it('marks a suspended user in the row', async () => {
    const suspended = { ...sam, suspendedAt: '2026-11-26T15:00:00.000Z' };
    mockFetch(adminServer({ users: [suspended], details: new Map() }));
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    const row = await screen.findByRole('row', { name: /sam@example\.com/ });
    expect(within(row).getByText('Suspended', { exact: true })).toBeVisible();
  });

  it('exports the users the filters show as CSV', async () => {
    mockFetch(adminServer({ users: [sam], details: new Map() }));
    renderWithProviders(<UsersTab adminId={ADMIN_ID} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'sam');
    const link = screen.getByRole('link', { name: 'Export CSV' });
    await waitFor(() => expect(link).toHaveAttribute('href', '/api/admin/users.csv?search=sam&role=all'));
    expect(link).toHaveAttribute('download');
  });
});
