// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { AppRouter } from '../router';
import {
  installDomStubs,
  jsonResponse,
  makeUser,
  mockFetch,
  renderWithProviders,
  signedInAs,
} from '../../test-support/render';
import type { Role } from '@domain/roles';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const noAvailability = (url: string) =>
  url === '/api/availability/schedules' || url === '/api/availability/blackouts'
    ? jsonResponse([])
    : undefined;

function visitAs(role: Role) {
  mockFetch(signedInAs(makeUser({ role, roles: ['buyer', role] })), noAvailability);
  window.history.replaceState(null, '', '/availability');
  renderWithProviders(<AppRouter />);
}

describe('/availability (docs/rules/screens-buyer.md, Account pages)', () => {
  it('mentions pickups to a seller', async () => {
    visitAs('seller');
    expect(await screen.findByRole('heading', { level: 1, name: 'Availability' })).toBeVisible();
    expect(screen.getByText('Set your weekly hours and blackout dates for customer pickups')).toBeVisible();
    expect(await screen.findByText('No weekly hours yet')).toBeVisible();
    expect(await screen.findByText('No blackout dates')).toBeVisible();
  });

  it.each(['driver', 'buyer'] as const)('mentions deliveries to a %s', async (role) => {
    visitAs(role);
    expect(await screen.findByRole('heading', { level: 1, name: 'Availability' })).toBeVisible();
    expect(screen.getByText('Set your weekly hours and blackout dates for deliveries')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Weekly Schedule' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Blackout Dates' })).toBeVisible();
  });
});
