// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminDriver } from '@domain/admin';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { DriverVerificationTab } from './driver-verification-tab';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const DRIVER_ID = '30000000-0000-4000-8000-000000000001';

const verified: AdminDriver = {
  id: DRIVER_ID,
  email: 'dan@example.com',
  firstName: 'Dan',
  lastName: 'Driver',
  profileImageUrl: null,
  isVerified: true,
  vehicleImageUrl: '/objects/uploads/v',
  licenseImageUrl: '/objects/uploads/l',
  trailerImageUrl: null,
  documentsChangedAt: null,
  lastDecision: { decision: 'approved', at: '2026-11-20T16:00:00.000Z', adminName: 'Ada Admin' },
  createdAt: '2026-11-01T16:00:00.000Z',
};

describe('revoking a driver (docs/rules/screens-work.md, Admin screens)', () => {
  it('asks for a confirmation first, and Keep Verified sends nothing', async () => {
    const revokes: unknown[] = [];
    mockFetch((url, init) => {
      if (url === `/api/admin/drivers/${DRIVER_ID}/verify` && init?.method === 'PATCH') {
        revokes.push(JSON.parse(String(init.body)));
        return jsonResponse({
          ...verified,
          isVerified: false,
          lastDecision: { decision: 'revoked', at: '2026-11-26T16:00:00.000Z', adminName: 'Ada Admin' },
        });
      }
      if (url.startsWith('/api/admin/drivers'))
        return jsonResponse({
          items: [verified],
          total: 1,
          page: 1,
          pageSize: 10,
          pageCount: 1,
          totalIsLowerBound: false,
        });
      return undefined;
    });
    renderWithProviders(<DriverVerificationTab adminId="00000000-0000-4000-8000-0000000000aa" />);
    const user = userEvent.setup();
    const card = await screen.findByRole('region', { name: /dan@example\.com/ });

    await user.click(within(card).getByRole('button', { name: 'Revoke' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke this driver’s verification?' });
    expect(confirm).toHaveTextContent('Dan Driver can no longer accept delivery orders');
    await user.click(within(confirm).getByRole('button', { name: 'Keep Verified' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(revokes).toEqual([]);

    await user.click(within(card).getByRole('button', { name: 'Revoke' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Dan Driver was revoked.')).toBeVisible();
    expect(revokes).toEqual([{ isVerified: false }]);
  });
});

describe('a driver who replaced a document (docs/rules/screens-work.md, Admin screens)', () => {
  it('is marked "Documents changed" with when, beside Pending', async () => {
    const changed: AdminDriver = {
      ...verified,
      isVerified: false,
      documentsChangedAt: '2026-11-26T18:30:00.000Z',
    };
    mockFetch((url) =>
      url.startsWith('/api/admin/drivers')
        ? jsonResponse({
            items: [changed, { ...verified, id: 'other', email: 'olga@example.com' }],
            total: 2,
            page: 1,
            pageSize: 10,
            pageCount: 1,
            totalIsLowerBound: false,
          })
        : undefined,
    );
    renderWithProviders(<DriverVerificationTab adminId="00000000-0000-4000-8000-0000000000aa" />);
    const card = await screen.findByRole('region', { name: /dan@example\.com/ });
    expect(within(card).getByText('Documents changed')).toBeVisible();
    expect(within(card).getByText(/^Replaced a document after approval/)).toHaveTextContent(
      'Replaced a document after approval · Nov 26, 2026',
    );
    const other = screen.getByRole('region', { name: /olga@example\.com/ });
    expect(within(other).queryByText('Documents changed')).toBeNull();
  });
});
