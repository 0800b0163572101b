// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
} from '../../../test-support/render';
import { RolesCard } from './roles-card';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

describe('Your Roles (docs/rules/screens-buyer.md, Account pages; docs/rules/accounts.md, Roles and permissions)', () => {
  it('lists the granted roles, the current one marked, and offers the roles still to take', () => {
    renderWithProviders(<RolesCard user={makeUser({ role: 'seller', roles: ['buyer', 'seller'] })} />);
    const granted = screen.getByRole('list', { name: 'Granted roles' });
    expect(
      within(granted)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Buyer', 'Seller (current)']);
    expect(screen.queryByRole('button', { name: 'Become a seller' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Become a driver' })).toBeEnabled();
  });

  it('asks the server for the role and says so', async () => {
    const buyer = makeUser();
    const fetchMock = mockFetch((url, init) => {
      if (url === '/api/auth/user/roles' && init?.method === 'POST')
        return jsonResponse({ ...buyer, role: 'seller', roles: ['buyer', 'seller'] });
      if (url === '/api/auth/user')
        return jsonResponse({ ...buyer, role: 'seller', roles: ['buyer', 'seller'] });
      return undefined;
    });
    renderWithProviders(<RolesCard user={buyer} />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Become a seller' }));
    expect(await screen.findByText('You are now a seller')).toBeVisible();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/auth/user/roles', expect.anything()));
    const init = fetchMock.mock.calls.find(([url]) => url === '/api/auth/user/roles')?.[1];
    expect(init?.body).toBe('{"role":"seller"}');
  });

  it("shows the server's reason when the role is refused", async () => {
    mockFetch(() =>
      jsonResponse({ message: 'Drivers must be 21 or older', code: 'forbidden', requestId: 'r' }, 403),
    );
    renderWithProviders(<RolesCard user={makeUser()} />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Become a driver' }));
    expect(await screen.findByText('Drivers must be 21 or older')).toBeVisible();
  });
});
