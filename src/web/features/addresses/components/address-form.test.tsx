// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Address } from '@domain/addresses';
import { ZIP_CODE_MESSAGE } from '@domain/addresses';
import { AddressForm, canValidateAddress } from './address-form';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const springfield = {
  'Address line 1': '100 main st',
  City: 'springfield',
  State: 'il',
  'ZIP code': '62701',
};

function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
}

function validateButton(): HTMLButtonElement {
  const button = screen.getByRole('button', { name: 'Validate Address' });
  if (!(button instanceof HTMLButtonElement)) throw new Error('not a button');
  return button;
}

function value(label: string): string {
  const input = screen.getByLabelText(label);
  return input instanceof HTMLInputElement ? input.value : '';
}

function renderForm(address?: Address) {
  const onSaved = vi.fn();
  renderWithProviders(<AddressForm address={address} onSaved={onSaved} onCancel={() => {}} />);
  return { onSaved };
}

const saved: Address = {
  id: 'a1',
  userId: 'u1',
  addressLine1: '100 main st',
  addressLine2: null,
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
  latitude: 39.8,
  longitude: -89.65,
  isVerified: true,
  isPrimary: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('canValidateAddress (docs/rules/screens-buyer.md, Account pages)', () => {
  it('needs address line 1, city, state and ZIP code; line 2 is optional', () => {
    const full = { addressLine1: '1 A St', addressLine2: '', city: 'X', state: 'IL', zipCode: '62701' };
    expect(canValidateAddress(full)).toBe(true);
    expect(canValidateAddress({ ...full, addressLine1: ' ' })).toBe(false);
    expect(canValidateAddress({ ...full, city: '' })).toBe(false);
    expect(canValidateAddress({ ...full, state: '' })).toBe(false);
    expect(canValidateAddress({ ...full, zipCode: '' })).toBe(false);
  });
});

describe('AddressForm (docs/rules/catalog-and-orders.md, Addresses, availability and slots; docs/rules/screens-buyer.md, Account pages)', () => {
  it('enables Validate Address only once the four required fields are filled', () => {
    mockFetch();
    renderForm();
    expect(validateButton().disabled).toBe(true);
    fill({ 'Address line 1': '100 main st', City: 'springfield', State: 'il' });
    expect(validateButton().disabled).toBe(true);
    fill({ 'ZIP code': '62701' });
    expect(validateButton().disabled).toBe(false);
    fill({ City: '' });
    expect(validateButton().disabled).toBe(true);
  });

  it('applies the normalised values and shows the coordinates found', async () => {
    const fetchMock = mockFetch((url) =>
      url === '/api/addresses/validate'
        ? jsonResponse({
            status: 'success',
            addressLine1: '100 main st',
            addressLine2: null,
            city: 'Springfield',
            state: 'IL',
            zipCode: '62701',
            latitude: 39.79907,
            longitude: -89.64387,
            isVerified: true,
            validationToken: 'proof-of-100-main-st',
          })
        : undefined,
    );
    renderForm();
    fill(springfield);
    fireEvent.click(validateButton());
    expect(await screen.findByText('Address verified')).toBeVisible();
    expect(screen.getByText(/39\.7991, -89\.6439/)).toBeVisible();
    expect(value('City')).toBe('Springfield');
    expect(value('State')).toBe('IL');
    const body: unknown = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(body).toMatchObject({ city: 'springfield', zipCode: '62701', country: 'US' });
  });

  it('sends the proof of the validation along when the validated fields are saved as they are', async () => {
    const fetchMock = mockFetch(
      (url) =>
        url === '/api/addresses/validate'
          ? jsonResponse({
              status: 'success',
              addressLine1: '100 Main St',
              addressLine2: null,
              city: 'Springfield',
              state: 'IL',
              zipCode: '62701',
              latitude: 39.8,
              longitude: -89.6,
              isVerified: true,
              validationToken: 'proof-of-100-main-st',
            })
          : undefined,
      (url, init) =>
        url === '/api/addresses' && init?.method === 'POST' ? jsonResponse(saved, 201) : undefined,
    );
    const { onSaved } = renderForm();
    fill(springfield);
    fireEvent.click(validateButton());
    await screen.findByText('Address verified');
    fireEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body: unknown = JSON.parse(String(fetchMock.mock.calls[1]?.[1]?.body));
    expect(body).toMatchObject({ addressLine1: '100 Main St', validationToken: 'proof-of-100-main-st' });
  });

  it('an unavailable result toasts "Validation unavailable", clears the coordinates and still saves', async () => {
    const fetchMock = mockFetch(
      (url) =>
        url === '/api/addresses/validate'
          ? jsonResponse({
              status: 'unavailable',
              addressLine1: '1 Nowhere Rd',
              addressLine2: null,
              city: 'Nowhere',
              state: 'IL',
              zipCode: '00000',
              latitude: null,
              longitude: null,
              isVerified: false,
              validationToken: null,
            })
          : undefined,
      (url, init) =>
        url === '/api/addresses' && init?.method === 'POST'
          ? jsonResponse({ ...saved, latitude: null, longitude: null, isVerified: false }, 201)
          : undefined,
    );
    const { onSaved } = renderForm();
    fill({ 'Address line 1': '1 Nowhere Rd', City: 'Nowhere', State: 'IL' });
    fill({ 'ZIP code': '00000' });
    fireEvent.click(validateButton());
    const toastTitles = await screen.findAllByText('Validation unavailable');
    expect(toastTitles.length).toBeGreaterThan(0);
    // The inline result and the toast (whose viewport loads after the first render).
    await waitFor(() =>
      expect(screen.getAllByText('We could not verify this address, but you can still save it.').length).toBe(
        2,
      ),
    );
    expect(screen.getByTestId('validation-result').getAttribute('data-status')).toBe('unavailable');
    expect(screen.queryByText(/Location found/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/addresses')).toBe(true);
  });

  it('treats a failed validation call as unavailable', async () => {
    mockFetch((url) =>
      url === '/api/addresses/validate'
        ? new Response('', { status: 502, statusText: 'Bad Gateway' })
        : undefined,
    );
    renderForm();
    fill(springfield);
    fireEvent.click(validateButton());
    expect(
      await screen.findByText('We could not verify this address, but you can still save it.', {
        selector: '[data-testid="validation-result"] p',
      }),
    ).toBeVisible();
    expect(screen.getByTestId('validation-result').getAttribute('data-status')).toBe('unavailable');
  });

  it('shows refused fields under the fields instead of "Validation unavailable"', async () => {
    mockFetch((url) =>
      url === '/api/addresses/validate'
        ? jsonResponse(
            {
              message: 'Invalid request. state: State must be a US state, for example IL',
              code: 'bad_request',
              requestId: 'r',
              fields: { state: 'State must be a US state, for example IL' },
            },
            400,
          )
        : undefined,
    );
    renderForm();
    fill(springfield);
    fireEvent.click(validateButton());
    expect(await screen.findByText('State must be a US state, for example IL')).toBeVisible();
    expect(screen.getByTestId('validation-result').getAttribute('data-status')).toBe('idle');
    expect(screen.getByLabelText('State').getAttribute('aria-invalid')).toBe('true');
  });

  it('goes back to idle when a field changes after validating', async () => {
    mockFetch((url) =>
      url === '/api/addresses/validate'
        ? jsonResponse({
            status: 'success',
            addressLine1: '100 main st',
            addressLine2: null,
            city: 'Springfield',
            state: 'IL',
            zipCode: '62701',
            latitude: 39.8,
            longitude: -89.6,
            isVerified: true,
            validationToken: 'proof-of-100-main-st',
          })
        : undefined,
    );
    renderForm();
    fill(springfield);
    fireEvent.click(validateButton());
    await screen.findByText('Address verified');
    fill({ 'Address line 1': '200 main st' });
    expect(screen.getByTestId('validation-result').getAttribute('data-status')).toBe('idle');
  });

  it('sends no proof for fields edited after validating, so the saved address is not verified', async () => {
    const fetchMock = mockFetch(
      (url) =>
        url === '/api/addresses/validate'
          ? jsonResponse({
              status: 'success',
              addressLine1: '100 main st',
              addressLine2: null,
              city: 'Springfield',
              state: 'IL',
              zipCode: '62701',
              latitude: 39.8,
              longitude: -89.6,
              isVerified: true,
              validationToken: 'proof-of-100-main-st',
            })
          : undefined,
      (url, init) =>
        url === '/api/addresses' && init?.method === 'POST' ? jsonResponse(saved, 201) : undefined,
    );
    const { onSaved } = renderForm();
    fill(springfield);
    fireEvent.click(validateButton());
    await screen.findByText('Address verified');
    fill({ 'Address line 1': '200 Main St' });
    fireEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body: unknown = JSON.parse(String(fetchMock.mock.calls[1]?.[1]?.body));
    expect(body).toMatchObject({ addressLine1: '200 Main St', validationToken: null });
  });

  it('checks the fields with the shared rules before calling the server', () => {
    const fetchMock = mockFetch();
    renderForm();
    fill({ ...springfield, 'ZIP code': '627' });
    fireEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    expect(screen.getByText(ZIP_CODE_MESSAGE)).toBeVisible();
    expect(screen.getByLabelText('ZIP code').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows server field messages under the fields and toasts "Failed to create address"', async () => {
    mockFetch((url) =>
      url === '/api/addresses'
        ? jsonResponse(
            {
              message: 'Invalid request. city: City is required',
              code: 'bad_request',
              requestId: 'r',
              fields: { city: 'City must be a real place' },
            },
            400,
          )
        : undefined,
    );
    renderForm();
    fill(springfield);
    fireEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    expect(await screen.findByText('City must be a real place')).toBeVisible();
    expect(await screen.findByText(/^Failed to create address/)).toBeVisible();
  });

  it('edits an address with PATCH and toasts "Failed to update address" on failure', async () => {
    const fetchMock = mockFetch((url, init) =>
      url === '/api/addresses/a1' && init?.method === 'PATCH'
        ? jsonResponse({ message: 'Address not found', code: 'not_found', requestId: 'r' }, 404)
        : undefined,
    );
    renderForm(saved);
    expect(value('City')).toBe('Springfield');
    fill({ 'Address line 1': '101 Main St' });
    fireEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    expect(await screen.findByText('Failed to update address: Address not found')).toBeVisible();
    const body: unknown = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(body).toEqual({
      addressLine1: '101 Main St',
      addressLine2: null,
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      country: 'US',
      validationToken: null,
    });
  });
});
