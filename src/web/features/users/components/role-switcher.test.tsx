// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { RoleSwitcher } from './role-switcher';
import * as navigation from '../../../lib/navigation';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
} from '../../../test-support/render';

installDomStubs();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function openMenu() {
  fireEvent.keyDown(screen.getByRole('button', { name: /^Current role: .*\. Switch role$/ }), {
    key: 'Enter',
  });
}

describe('RoleSwitcher (docs/rules/screens-buyer.md, Routes and headers; docs/rules/accounts.md, Roles and permissions)', () => {
  it('is a static label with one granted role', () => {
    renderWithProviders(<RoleSwitcher user={makeUser()} />);
    // Read as "Role: Buyer", and nothing to press.
    expect(screen.getByText('Buyer')).toHaveTextContent(/^Role: Buyer$/);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('lists the granted roles and switches, then refreshes the current user', async () => {
    const user = makeUser({ role: 'buyer', roles: ['buyer', 'seller'] });
    const fetchMock = mockFetch((url, init) => {
      if (url === `/api/users/${user.id}/role` && init?.method === 'PATCH')
        return jsonResponse({ ...user, role: 'seller' });
      if (url === '/api/auth/user') return jsonResponse({ ...user, role: 'seller' });
      return undefined;
    });
    renderWithProviders(<RoleSwitcher user={user} />);
    openMenu();
    expect(await screen.findByRole('menuitemradio', { name: 'Buyer', checked: true })).toBeVisible();
    expect(screen.queryByRole('menuitemradio', { name: 'Driver' })).toBeNull();
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Seller' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(`/api/users/${user.id}/role`, expect.anything()),
    );
    const init = fetchMock.mock.calls.find(([url]) => url === `/api/users/${user.id}/role`)?.[1];
    expect(init?.body).toBe('{"role":"seller"}');
  });

  it('on a 401 says "Unauthorized" and signs in again after 500 ms', async () => {
    const user = makeUser({ roles: ['buyer', 'driver'] });
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    mockFetch(() => jsonResponse({ message: 'Unauthorized', code: 'unauthorized', requestId: 'r' }, 401));
    renderWithProviders(<RoleSwitcher user={user} />);
    openMenu();
    fireEvent.click(await screen.findByRole('menuitemradio', { name: 'Driver' }));
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeVisible();
    expect(screen.getByText('Unauthorized')).toBeVisible();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/login'), { timeout: 1500 });
  });

  it('on any other failure says "Failed to update role"', async () => {
    const user = makeUser({ roles: ['buyer', 'driver'] });
    mockFetch(() => jsonResponse({ message: 'Forbidden', code: 'forbidden', requestId: 'r' }, 403));
    renderWithProviders(<RoleSwitcher user={user} />);
    openMenu();
    fireEvent.click(await screen.findByRole('menuitemradio', { name: 'Driver' }));
    expect(await screen.findByText('Failed to update role')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
  });
});
