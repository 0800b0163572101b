// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_DELIVERY_PROOF } from '@domain/delivery-proof';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { DeliveryProofCard } from './delivery-proof-card';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

describe('Proof of delivery (docs/rules/screens-work.md, Admin screens)', () => {
  it('shows the four switches as saved and saves the changed ones', async () => {
    const saved: unknown[] = [];
    mockFetch((url, init) => {
      if (url !== '/api/admin/delivery-proof-settings') return undefined;
      if (init?.method === 'PUT') {
        const body: unknown = JSON.parse(String(init.body));
        saved.push(body);
        return jsonResponse(body);
      }
      return jsonResponse(DEFAULT_DELIVERY_PROOF);
    });
    renderWithProviders(<DeliveryProofCard />);
    const user = userEvent.setup();
    const standardCode = await screen.findByLabelText("Standard orders: buyer's delivery code required");
    expect(standardCode).not.toBeChecked();
    expect(screen.getByLabelText('Standard orders: drop-off photo required')).toBeChecked();
    expect(screen.getByLabelText("Trailer orders: buyer's delivery code required")).toBeChecked();
    await user.click(standardCode);
    await user.click(screen.getByLabelText('Trailer orders: drop-off photo required'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(saved).toEqual([
        { standardPhoto: true, standardCode: true, trailerPhoto: false, trailerCode: true },
      ]),
    );
  });
});
