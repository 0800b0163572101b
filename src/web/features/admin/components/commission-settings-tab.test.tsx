// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_DELIVERY_PROOF } from '@domain/delivery-proof';
import { DEFAULT_COMMISSION_RATES, formatCommissionSettings } from '@domain/fees';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { CommissionSettingsTab } from './commission-settings-tab';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

describe('Commission settings (docs/rules/screens-work.md, Admin screens)', () => {
  it('saves a changed rate and says that orders paid from now on use it', async () => {
    let settings = formatCommissionSettings(DEFAULT_COMMISSION_RATES);
    const saved: unknown[] = [];
    mockFetch((url, init) => {
      if (url === '/api/admin/delivery-proof-settings') return jsonResponse(DEFAULT_DELIVERY_PROOF);
      if (url !== '/api/admin/commission-settings') return jsonResponse([]);
      if (init?.method === 'PATCH') {
        const body = JSON.parse(String(init.body)) as Record<string, string>;
        saved.push(body);
        settings = { ...settings, salesPriceTierReduction: '0.0300' };
      }
      return jsonResponse(settings);
    });
    renderWithProviders(<CommissionSettingsTab />);
    const user = userEvent.setup();
    const reduction = await screen.findByLabelText('Sales price tier reduction (%)');
    expect(reduction).toHaveValue(1);
    await user.clear(reduction);
    await user.type(reduction, '3');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Orders paid from now on use the new commission settings.')).toBeVisible();
    expect(screen.getByText('Settings updated')).toBeVisible();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ salesPriceTierReduction: '0.0300', baseCommissionRate: '0.1000' });
    expect(screen.getByLabelText('Sales price tier reduction (%)')).toHaveValue(3);
  });
});
