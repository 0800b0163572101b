// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
} from '../../../test-support/render';
import { OfferEmailsCard } from './offer-emails-card';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

describe('Offer Emails (docs/decisions/0019-reaching-people.md, Mail)', () => {
  it('is for drivers only', () => {
    const fetchMock = mockFetch(() => jsonResponse({ offerAlerts: false }));
    renderWithProviders(<OfferEmailsCard user={makeUser({ roles: ['buyer', 'seller'] })} />);
    expect(screen.queryByText('Offer Emails')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the saved switch and saves a change', async () => {
    const fetchMock = mockFetch((url, init) => {
      if (url !== '/api/auth/user/email-preferences') return undefined;
      return init?.method === 'PATCH'
        ? jsonResponse(JSON.parse(String(init.body)))
        : jsonResponse({ offerAlerts: false });
    });
    renderWithProviders(<OfferEmailsCard user={makeUser({ role: 'driver', roles: ['buyer', 'driver'] })} />);
    const box = await screen.findByRole('checkbox', {
      name: 'Email me new delivery offers within 50 miles of my primary address',
    });
    await waitFor(() => expect(box).toBeEnabled());
    expect(box).not.toBeChecked();
    await userEvent.setup().click(box);
    expect(await screen.findByText('Offer emails turned on')).toBeVisible();
    expect(box).toBeChecked();
    const init = fetchMock.mock.calls.find(([, options]) => options?.method === 'PATCH')?.[1];
    expect(init?.body).toBe('{"offerAlerts":true}');
  });
});
