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
import { TwoFactorCard } from './two-factor-card';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('Two-factor sign-in card (docs/decisions/0024-two-factor-sign-in.md)', () => {
  it('is hidden for an OpenID Connect account', () => {
    mockFetch();
    renderWithProviders(<TwoFactorCard user={makeUser({ localAccount: false })} />);
    expect(screen.queryByText('Two-factor sign-in')).toBeNull();
  });

  it('sets up: the key in groups, a wrong code explained, then the recovery codes shown once', async () => {
    let enableAttempts = 0;
    const fetchMock = mockFetch((url, init) => {
      if (url === '/api/auth/two-factor')
        return jsonResponse({ enabled: false, enabledAt: null, recoveryCodesLeft: 0, setupRequired: true });
      if (url === '/api/auth/two-factor/setup')
        return jsonResponse({ secret: SECRET, qrCode: 'data:image/svg+xml;base64,PHN2Zy8+' });
      if (url === '/api/auth/two-factor/enable' && init?.method === 'POST') {
        enableAttempts += 1;
        const message = 'That code is not right. Enter the current code from your app.';
        return enableAttempts === 1
          ? jsonResponse({ message, code: 'bad_request', requestId: 'r', fields: { code: message } }, 400)
          : jsonResponse({ recoveryCodes: ['abcde-fghjk', 'mnpqr-stuvw'] });
      }
      return undefined;
    });
    renderWithProviders(<TwoFactorCard user={makeUser()} />);
    const user = userEvent.setup();
    expect(await screen.findByText(/^Administrators must use two-factor sign-in\./)).toHaveTextContent(
      'Administrators must use two-factor sign-in.',
    );
    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    expect(screen.getByTestId('text-two-factor-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');

    await user.click(screen.getByRole('button', { name: 'Turn On' }));
    expect(await screen.findByText('Enter the 6-digit code from the app')).toBeVisible();
    await user.type(screen.getByLabelText('Code from the app'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Turn On' }));
    expect(
      await screen.findByText('That code is not right. Enter the current code from your app.'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Turn On' }));
    expect(await screen.findByText('abcde-fghjk')).toBeVisible();
    expect(screen.getByText('mnpqr-stuvw')).toBeVisible();
    const enableCall = fetchMock.mock.calls.find(([url]) => url === '/api/auth/two-factor/enable');
    expect(JSON.parse(String(enableCall?.[1]?.body))).toEqual({ code: '123456' });
  });

  it('turns off with a code when 6 digits are typed, with the password otherwise', async () => {
    const fetchMock = mockFetch((url) => {
      if (url === '/api/auth/two-factor')
        return jsonResponse({
          enabled: true,
          enabledAt: '2026-12-01T16:00:00.000Z',
          recoveryCodesLeft: 1,
          setupRequired: false,
        });
      if (url === '/api/auth/two-factor/disable') return new Response(null, { status: 204 });
      return undefined;
    });
    renderWithProviders(<TwoFactorCard user={makeUser()} />);
    const user = userEvent.setup();
    expect(await screen.findByText(/recovery codes? left\.$/)).toHaveTextContent('1 recovery code left.');
    await user.type(screen.getByLabelText('Password or a code from the app'), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn Off Two-Factor Sign-In' }));
    expect(await screen.findByText('Two-factor sign-in is off')).toBeVisible();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/two-factor/disable');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ code: '654321' });
  });
});
