// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
} from '../../../test-support/render';
import { PasswordCard } from './password-card';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

describe('Password card (docs/decisions/0019-reaching-people.md, Accounts)', () => {
  it('is hidden for an OpenID Connect account', () => {
    mockFetch();
    renderWithProviders(<PasswordCard user={makeUser({ localAccount: false })} />);
    expect(screen.queryByText('Password')).toBeNull();
  });

  it('checks the confirmation, shows the server’s field error, then says the password was changed', async () => {
    let attempts = 0;
    const fetchMock = mockFetch((url, init) => {
      if (url !== '/api/auth/password' || init?.method !== 'POST') return undefined;
      attempts += 1;
      return attempts === 1
        ? jsonResponse(
            {
              message: 'The current password is not correct.',
              code: 'bad_request',
              requestId: 'r1',
              fields: { currentPassword: 'The current password is not correct.' },
            },
            400,
          )
        : jsonResponse({ message: 'Your password was changed.' });
    });
    renderWithProviders(<PasswordCard user={makeUser()} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Current password'), 'old password');
    await user.type(screen.getByLabelText('New password'), 'a new password');
    await user.type(screen.getByLabelText('Confirm new password'), 'another one');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('The passwords do not match')).toBeVisible();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'a new password');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('The current password is not correct.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed')).toBeVisible();
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    const body = fetchMock.mock.calls.at(-1)?.[1]?.body;
    expect(JSON.parse(String(body))).toEqual({
      currentPassword: 'old password',
      newPassword: 'a new password',
    });
  });

  it('offers a new verification link while the email is not verified', async () => {
    const fetchMock = mockFetch((url) =>
      url === '/api/resend-verification' ? jsonResponse({ message: 'sent' }, 202) : undefined,
    );
    renderWithProviders(<PasswordCard user={makeUser({ emailVerified: false })} />);
    expect(screen.getByText('Your email address is not verified yet.')).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Verification email sent')).toBeVisible();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ email: 'sam@example.com' });
  });
});
