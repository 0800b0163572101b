// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Schedule } from '@domain/availability';
import { NO_SCHEDULES_TEXT, WeeklyScheduleCard } from './weekly-schedule-card';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const URL = '/api/availability/schedules';

function makeSchedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: 's1',
    userId: 'u1',
    dayOfWeek: 1,
    startTime: '09:00',
    endTime: '17:00',
    isActive: true,
    ...overrides,
  };
}

function input(label: string): HTMLInputElement {
  const element = screen.getByLabelText(label);
  if (!(element instanceof HTMLInputElement)) throw new Error(`${label} is not an input`);
  return element;
}

describe('WeeklyScheduleCard (docs/rules/screens-buyer.md, Account pages)', () => {
  it('says when there are no weekly hours, and the form starts at Monday 09:00 to 17:00', async () => {
    mockFetch((url) => (url === URL ? jsonResponse([]) : undefined));
    renderWithProviders(<WeeklyScheduleCard description="When you work." />);
    expect(await screen.findByText(NO_SCHEDULES_TEXT)).toBeVisible();
    expect(screen.getByLabelText('Day').textContent).toContain('Monday');
    expect(input('Start time').value).toBe('09:00');
    expect(input('End time').value).toBe('17:00');
    expect(input('Start time').type).toBe('time');
  });

  it('adds a row with the defaults and refreshes the list', async () => {
    let rows: Schedule[] = [];
    const fetchMock = mockFetch((url, init) => {
      if (url !== URL) return undefined;
      if (init?.method === 'POST') {
        rows = [makeSchedule()];
        return jsonResponse(rows[0], 201);
      }
      return jsonResponse(rows);
    });
    renderWithProviders(<WeeklyScheduleCard description="When you work." />);
    await screen.findByText(NO_SCHEDULES_TEXT);
    fireEvent.click(screen.getByRole('button', { name: 'Add hours' }));
    const row = await within(await screen.findByRole('list', { name: 'Weekly hours' })).findByRole(
      'listitem',
    );
    expect(within(row).getByText('Monday')).toBeVisible();
    expect(within(row).getByText('9:00 AM – 5:00 PM')).toBeVisible();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')?.[1];
    expect(JSON.parse(String(post?.body))).toEqual({ dayOfWeek: 1, startTime: '09:00', endTime: '17:00' });
    expect(await screen.findByText('Schedule added')).toBeVisible();
  });

  it('removes a row', async () => {
    let rows = [makeSchedule({ id: 's9', dayOfWeek: 3, startTime: '10:00', endTime: '14:30' })];
    mockFetch((url, init) => {
      if (url === `${URL}/s9` && init?.method === 'DELETE') {
        rows = [];
        return new Response(null, { status: 204 });
      }
      return url === URL ? jsonResponse(rows) : undefined;
    });
    renderWithProviders(<WeeklyScheduleCard description="When you work." />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Wednesday 10:00 AM – 2:30 PM' }));
    expect(await screen.findByText(NO_SCHEDULES_TEXT)).toBeVisible();
  });

  it('says "Failed to add schedule" with the server message', async () => {
    mockFetch((url, init) => {
      if (url !== URL) return undefined;
      if (init?.method === 'POST') {
        return jsonResponse({ message: 'Too many schedules', code: 'conflict', requestId: 'r' }, 409);
      }
      return jsonResponse([]);
    });
    renderWithProviders(<WeeklyScheduleCard description="When you work." />);
    await screen.findByText(NO_SCHEDULES_TEXT);
    fireEvent.click(screen.getByRole('button', { name: 'Add hours' }));
    expect(await screen.findByText('Failed to add schedule: Too many schedules')).toBeVisible();
  });

  it('checks the times with the shared rules and accepts an end before the start', async () => {
    const fetchMock = mockFetch((url) => (url === URL ? jsonResponse([]) : undefined));
    renderWithProviders(<WeeklyScheduleCard description="When you work." />);
    await screen.findByText(NO_SCHEDULES_TEXT);
    fireEvent.change(input('Start time'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add hours' }));
    expect(screen.getByText('Start time must be a time like 09:00 (HH:mm, 24-hour)')).toBeVisible();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    fireEvent.change(input('Start time'), { target: { value: '18:00' } });
    expect(screen.getByText('Ends before it starts, so this range offers no times.')).toBeVisible();
    await waitFor(() => expect(input('Start time').value).toBe('18:00'));
  });
});
