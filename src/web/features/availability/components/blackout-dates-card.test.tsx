// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { END_BEFORE_START_MESSAGE, type Blackout } from '@domain/availability';
import { todayLocalDate } from '../availability-format';
import { BlackoutDatesCard, NO_BLACKOUTS_TEXT } from './blackout-dates-card';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const URL = '/api/availability/blackouts';

function input(label: string | RegExp): HTMLInputElement {
  const element = screen.getByLabelText(label);
  if (!(element instanceof HTMLInputElement)) throw new Error(`${String(label)} is not an input`);
  return element;
}

describe('BlackoutDatesCard (docs/rules/screens-buyer.md, Account pages)', () => {
  it('says when there are no blackout dates; the form starts with today', async () => {
    // A fixed clock: read at render and again here, "today" could change at midnight in between.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T18:00:00.000Z'));
    try {
      mockFetch((url) => (url === URL ? jsonResponse([]) : undefined));
      renderWithProviders(<BlackoutDatesCard description="Days off." />);
      expect(await screen.findByText(NO_BLACKOUTS_TEXT)).toBeVisible();
      expect(todayLocalDate()).toBe('2026-11-23');
      expect(input('Start date').value).toBe('2026-11-23');
      expect(input('End date').value).toBe('2026-11-23');
    } finally {
      vi.useRealTimers();
    }
    expect(input('Start date').type).toBe('date');
    expect(input(/^Reason/).value).toBe('');
  });

  it('adds a range with a reason, then removes it', async () => {
    let rows: Blackout[] = [];
    const fetchMock = mockFetch((url, init) => {
      if (url === `${URL}/b1` && init?.method === 'DELETE') {
        rows = [];
        return new Response(null, { status: 204 });
      }
      if (url !== URL) return undefined;
      if (init?.method === 'POST') {
        rows = [
          { id: 'b1', userId: 'u1', startDate: '2026-12-24', endDate: '2026-12-26', reason: 'Holiday' },
        ];
        return jsonResponse(rows[0], 201);
      }
      return jsonResponse(rows);
    });
    renderWithProviders(<BlackoutDatesCard description="Days off." />);
    await screen.findByText(NO_BLACKOUTS_TEXT);
    fireEvent.change(input('Start date'), { target: { value: '2026-12-24' } });
    fireEvent.change(input('End date'), { target: { value: '2026-12-26' } });
    fireEvent.change(input(/^Reason/), { target: { value: 'Holiday' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add blackout dates' }));
    const row = await within(await screen.findByRole('list', { name: 'Blackout dates' })).findByRole(
      'listitem',
    );
    expect(within(row).getByText('Thu, Dec 24, 2026 – Sat, Dec 26, 2026')).toBeVisible();
    expect(within(row).getByText('Holiday')).toBeVisible();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')?.[1];
    expect(JSON.parse(String(post?.body))).toEqual({
      startDate: '2026-12-24',
      endDate: '2026-12-26',
      reason: 'Holiday',
    });
  });

  it('moves the end date along when the start passes it', async () => {
    mockFetch((url) => (url === URL ? jsonResponse([]) : undefined));
    renderWithProviders(<BlackoutDatesCard description="Days off." />);
    await screen.findByText(NO_BLACKOUTS_TEXT);
    fireEvent.change(input('Start date'), { target: { value: '2099-05-01' } });
    expect(input('End date').value).toBe('2099-05-01');
  });

  it('refuses an end before the start with the shared message', async () => {
    const fetchMock = mockFetch((url) => (url === URL ? jsonResponse([]) : undefined));
    renderWithProviders(<BlackoutDatesCard description="Days off." />);
    await screen.findByText(NO_BLACKOUTS_TEXT);
    fireEvent.change(input('Start date'), { target: { value: '2099-05-10' } });
    fireEvent.change(input('End date'), { target: { value: '2099-05-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add blackout dates' }));
    expect(screen.getByText(END_BEFORE_START_MESSAGE)).toBeVisible();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('says "Failed to add blackout date" when the server refuses', async () => {
    mockFetch((url, init) => {
      if (url !== URL) return undefined;
      if (init?.method === 'POST') return new Response('', { status: 500, statusText: 'Server Error' });
      return jsonResponse([]);
    });
    renderWithProviders(<BlackoutDatesCard description="Days off." />);
    await screen.findByText(NO_BLACKOUTS_TEXT);
    fireEvent.click(screen.getByRole('button', { name: 'Add blackout dates' }));
    expect(await screen.findByText('Failed to add blackout date')).toBeVisible();
  });
});
