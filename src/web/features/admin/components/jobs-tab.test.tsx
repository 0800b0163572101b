// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { AdminJobs } from '@domain/jobs';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { JobsTab } from './jobs-tab';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

describe('Jobs (docs/decisions/0021-durable-jobs.md)', () => {
  it('names each job in words, with its runs, failures and the latest reasons, and what waits to be sent', async () => {
    const jobs: AdminJobs = {
      queues: [
        {
          name: 'notifications',
          waiting: 1,
          running: 0,
          failedLastDay: 0,
          lastCompletedAt: '2026-11-28T15:00:00.000Z',
        },
        { name: 'payout-retry', waiting: 0, running: 1, failedLastDay: 2, lastCompletedAt: null },
      ],
      failures: [
        {
          id: 'f1',
          name: 'payout-retry',
          failedAt: '2026-11-28T14:00:00.000Z',
          message: 'Stopped before it finished (its instance stopped, or it ran past its time limit)',
        },
      ],
      outbox: { mail: 1, push: 3 },
    };
    mockFetch((url) => (url === '/api/admin/jobs' ? jsonResponse(jobs) : undefined));
    renderWithProviders(<JobsTab />);
    expect(
      await screen.findByText('Waiting to be sent: 1 mail message and 3 push notifications.'),
    ).toBeVisible();
    const jobsTable = screen.getByRole('table', { name: 'Jobs' });
    const payouts = within(jobsTable).getByRole('row', { name: /^Payouts to sellers and drivers/ });
    expect(within(payouts).getByText('Payouts to sellers and drivers')).toBeVisible();
    expect(within(payouts).getByText('—')).toBeVisible();
    expect(within(jobsTable).getByRole('row', { name: /^Mail and push/ })).toBeVisible();
    const failure = within(screen.getByRole('table', { name: /^Failures in the last 24 hours/ })).getByRole(
      'row',
      { name: /Payouts to sellers and drivers/ },
    );
    expect(within(failure).getByText('Payouts to sellers and drivers')).toBeVisible();
    expect(
      within(failure).getByText(
        'Stopped before it finished (its instance stopped, or it ran past its time limit)',
      ),
    ).toBeVisible();
  });

  it('says when the queue has not started and nothing failed', async () => {
    mockFetch((url) =>
      url === '/api/admin/jobs'
        ? jsonResponse({ queues: [], failures: [], outbox: { mail: 0, push: 0 } })
        : undefined,
    );
    renderWithProviders(<JobsTab />);
    expect(
      await screen.findByText('The job queue has not started yet: it starts once the server is up.'),
    ).toBeVisible();
    expect(screen.getByText('None.')).toBeVisible();
  });
});
