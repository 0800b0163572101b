// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToString } from 'react-dom/server';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createQueryClient } from '../../../lib/query-client';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { RoleSelect } from './role-select';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const SAM = {
  id: '00000000-0000-4000-8000-000000000001',
  role: 'seller',
  firstName: 'Sam',
  lastName: 'Seller',
} as const;

/** Answers the role change with a refusal, and records what was asked. */
function refuseRoleChanges() {
  return mockFetch((url, init) =>
    url === `/api/admin/users/${SAM.id}/role` && init?.method === 'PATCH'
      ? jsonResponse({ code: 'FORBIDDEN', message: 'Not now' }, 403)
      : undefined,
  );
}

const askedRoles = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as { role: string });

describe('the current-role select (docs/rules/screens-work.md, Admin screens)', () => {
  it("names the user's role in the page the server renders", () => {
    const html = renderToString(
      <QueryClientProvider client={createQueryClient()}>
        <RoleSelect user={SAM} isSelf={false} />
      </QueryClientProvider>,
    );
    const page = document.createElement('div');
    page.innerHTML = html;
    expect(page.querySelector('[aria-label="Current role of Sam Seller"]')?.textContent).toBe('Seller');
  });

  it('changes the role with the pointer', async () => {
    const fetchMock = refuseRoleChanges();
    renderWithProviders(<RoleSelect user={SAM} isSelf={false} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Current role of Sam Seller' }));
    await user.click(await screen.findByRole('option', { name: 'Driver' }));
    await waitFor(() => expect(askedRoles(fetchMock)).toEqual([{ role: 'driver' }]));
  });

  it('changes the role by typing on the closed select', async () => {
    const fetchMock = refuseRoleChanges();
    renderWithProviders(<RoleSelect user={SAM} isSelf={false} />);
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('combobox', { name: 'Current role of Sam Seller' })).toHaveFocus();
    await user.keyboard('d');
    await waitFor(() => expect(askedRoles(fetchMock)).toEqual([{ role: 'driver' }]));
  });
});
