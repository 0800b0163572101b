// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { PayoutAccountState } from '@domain/payout-accounts';
import * as navigation from '../../../lib/navigation';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { PayoutCard } from './payout-card';

installDomStubs();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const NONE: PayoutAccountState = {
  hasAccount: false,
  onboardingComplete: false,
  status: null,
  chargesEnabled: false,
  payoutsEnabled: false,
};
const INCOMPLETE: PayoutAccountState = { ...NONE, hasAccount: true, status: 'pending' };
const onboarded = (status: 'active' | 'pending' | 'restricted'): PayoutAccountState => ({
  hasAccount: true,
  onboardingComplete: true,
  status,
  chargesEnabled: status === 'active',
  payoutsEnabled: status === 'active',
});

const STATUS_URL = '/api/stripe/connect/account-status';
const failure = (status: number) =>
  jsonResponse(
    { message: 'The payment service is not reachable', code: 'unavailable', requestId: 'r' },
    status,
  );

function statusIs(state: PayoutAccountState) {
  return (url: string) => (url === STATUS_URL ? jsonResponse(state) : undefined);
}

const calls = (fetchMock: ReturnType<typeof mockFetch>, url: string) =>
  fetchMock.mock.calls.filter(([input, init]) => input === url && (init?.method ?? 'GET') === 'POST');

describe('the payout card (docs/rules/money.md, Payout accounts)', () => {
  it('offers Set Up Payouts without an account, then creates it and follows the onboarding link in this window', async () => {
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    const fetchMock = mockFetch(statusIs(NONE), (url, init) => {
      if (url === '/api/stripe/connect/account' && init?.method === 'POST')
        return jsonResponse(INCOMPLETE, 201);
      if (url === '/api/stripe/connect/onboarding-link')
        return jsonResponse({ url: 'https://connect.example/setup' });
      return undefined;
    });
    renderWithProviders(<PayoutCard dashboard="seller" />);
    const setUp = await screen.findByRole('button', { name: 'Set Up Payouts' });
    expect(screen.queryByTestId('badge-payout-status')).toBeNull();
    fireEvent.click(setUp);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://connect.example/setup'));
    expect(calls(fetchMock, '/api/stripe/connect/account')).toHaveLength(1);
    const [linkCall] = calls(fetchMock, '/api/stripe/connect/onboarding-link');
    expect(JSON.parse(String(linkCall?.[1]?.body))).toEqual({ dashboard: 'seller' });
  });

  it("shows Incomplete and Complete Setup before onboarding is done, returning to the driver's dashboard", async () => {
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    const fetchMock = mockFetch(statusIs(INCOMPLETE), (url) =>
      url === '/api/stripe/connect/onboarding-link'
        ? jsonResponse({ url: '/payouts/test-onboarding/x' })
        : undefined,
    );
    renderWithProviders(<PayoutCard dashboard="driver" />);
    expect(await screen.findByTestId('badge-payout-status')).toHaveTextContent('Incomplete');
    expect(screen.queryByRole('button', { name: 'Set Up Payouts' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Complete Setup' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/payouts/test-onboarding/x'));
    const [linkCall] = calls(fetchMock, '/api/stripe/connect/onboarding-link');
    expect(JSON.parse(String(linkCall?.[1]?.body))).toEqual({ dashboard: 'driver' });
  });

  it.each([
    ['active', 'Active'],
    ['pending', 'Pending'],
    ['restricted', 'Restricted'],
  ] as const)('shows the %s badge once onboarded, with the provider dashboard', async (status, label) => {
    mockFetch(statusIs(onboarded(status)));
    renderWithProviders(<PayoutCard dashboard="seller" />);
    expect(await screen.findByTestId('badge-payout-status')).toHaveTextContent(label);
    expect(screen.getByRole('button', { name: /Open Payout Dashboard/ })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Complete Setup' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update Details' }) !== null).toBe(status === 'restricted');
  });

  it('opens the provider dashboard in a new tab, detached from this page', async () => {
    const tab = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    mockFetch(statusIs(onboarded('active')), (url) =>
      url === '/api/stripe/connect/dashboard-link'
        ? jsonResponse({ url: 'https://connect.example/express' })
        : undefined,
    );
    renderWithProviders(<PayoutCard dashboard="seller" />);
    fireEvent.click(await screen.findByRole('button', { name: /Open Payout Dashboard/ }));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    await waitFor(() => expect(tab.location.href).toBe('https://connect.example/express'));
  });

  it("toasts 'Failed to create payout account' and follows nothing when the account cannot be made", async () => {
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    mockFetch(statusIs(NONE), (url) => (url === '/api/stripe/connect/account' ? failure(503) : undefined));
    renderWithProviders(<PayoutCard dashboard="seller" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set Up Payouts' }));
    expect(await screen.findByText('Failed to create payout account')).toBeVisible();
    expect(assign).not.toHaveBeenCalled();
  });

  it("toasts 'Failed to start onboarding' when no link comes back", async () => {
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    mockFetch(statusIs(INCOMPLETE), (url) =>
      url === '/api/stripe/connect/onboarding-link' ? failure(503) : undefined,
    );
    renderWithProviders(<PayoutCard dashboard="seller" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Complete Setup' }));
    expect(await screen.findByText('Failed to start onboarding')).toBeVisible();
    expect(assign).not.toHaveBeenCalled();
  });

  it('asks for the status again every 60 s, and shows the new state', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let state: PayoutAccountState = INCOMPLETE;
    const fetchMock = mockFetch((url) => (url === STATUS_URL ? jsonResponse(state) : undefined));
    renderWithProviders(<PayoutCard dashboard="seller" />);
    expect(await screen.findByTestId('badge-payout-status')).toHaveTextContent('Incomplete');
    state = onboarded('active');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(59_000);
    });
    expect(fetchMock.mock.calls.filter(([url]) => url === STATUS_URL)).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    await waitFor(() => expect(screen.getByTestId('badge-payout-status')).toHaveTextContent('Active'));
    expect(fetchMock.mock.calls.filter(([url]) => url === STATUS_URL)).toHaveLength(2);
  });

  it('starts a new onboarding at once when the provider sends the user back to refresh an expired link', async () => {
    window.history.replaceState(null, '', '/seller/dashboard?payouts=refresh');
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    mockFetch(statusIs(INCOMPLETE), (url) =>
      url === '/api/stripe/connect/onboarding-link'
        ? jsonResponse({ url: 'https://connect.example/again' })
        : undefined,
    );
    renderWithProviders(<PayoutCard dashboard="seller" />);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://connect.example/again'));
    expect(window.location.search).toBe('');
  });

  it('offers to try again when the status cannot be loaded', async () => {
    mockFetch((url) => (url === STATUS_URL ? failure(500) : undefined));
    renderWithProviders(<PayoutCard dashboard="seller" />);
    expect(await screen.findByText('Your payout status could not be loaded.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeEnabled();
  });
});
