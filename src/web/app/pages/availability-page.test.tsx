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

describe('/availability (spec seller §2 Availability)', () => {
  it('mentions pickups to a seller', async () => {
    visitAs('seller');
    expect(await screen.findByRole('heading', { level: 1, name: 'Availability' })).toBeTruthy();
    expect(screen.getByText('Set your weekly hours and blackout dates for customer pickups')).toBeTruthy();
    expect(await screen.findByText('No weekly hours yet')).toBeTruthy();
    expect(await screen.findByText('No blackout dates')).toBeTruthy();
  });

  it.each(['driver', 'buyer'] as const)('mentions deliveries to a %s', async (role) => {
    visitAs(role);
    expect(await screen.findByRole('heading', { level: 1, name: 'Availability' })).toBeTruthy();
    expect(screen.getByText('Set your weekly hours and blackout dates for deliveries')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Weekly Schedule' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Blackout Dates' })).toBeTruthy();
  });
});
