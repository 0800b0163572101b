// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ContactForm } from './contact-form';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

/** Types into the fields by their labels. */
function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(label === 'Phone' ? /^Phone/ : label), { target: { value } });
  }
}

const valid = {
  Name: 'Ada Lovelace',
  Email: 'ada@example.com',
  Subject: 'Delivery question',
  Message: 'Do you deliver on Sundays?',
};

describe('ContactForm (docs/rules/screens-buyer.md, Account pages)', () => {
  it('shows each field its own message and sends nothing', () => {
    const fetchMock = mockFetch();
    renderWithProviders(<ContactForm />);
    fill({ Name: 'A', Email: 'nope', Subject: 'Hi', Message: 'short' });
    fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.getByText('Name must be at least 2 characters')).toBeVisible();
    expect(screen.getByText('Invalid email address')).toBeVisible();
    expect(screen.getByText('Subject must be at least 3 characters')).toBeVisible();
    expect(screen.getByText('Message must be at least 10 characters')).toBeVisible();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Name').getAttribute('aria-describedby')).toBe('contact-name-error');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends, confirms, and resets for another message', async () => {
    const fetchMock = mockFetch((url) =>
      url === '/api/contact'
        ? jsonResponse({ id: 'm1', receivedAt: '2026-01-01T00:00:00Z' }, 201)
        : undefined,
    );
    renderWithProviders(<ContactForm />);
    fill({ ...valid, Phone: '' });
    fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('heading', { name: 'Message Sent!' })).toBeVisible();
    const body: unknown = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '',
      subject: 'Delivery question',
      message: 'Do you deliver on Sundays?',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send Another Message' }));
    expect(screen.getByLabelText('Name')).toHaveProperty('value', '');
  });

  it('shows the server message when the server refuses', async () => {
    mockFetch(() =>
      jsonResponse(
        { message: 'You have sent several messages in a short time.', code: 'rate_limited', requestId: 'r' },
        429,
      ),
    );
    renderWithProviders(<ContactForm />);
    fill(valid);
    fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('You have sent several messages in a short time.')).toBeVisible();
  });

  it('falls back to the spec text when the failure has no message', async () => {
    mockFetch(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
    renderWithProviders(<ContactForm />);
    fill(valid);
    fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Failed to send message. Please try again.')).toBeVisible();
  });

  it('puts the server field messages under the fields', async () => {
    mockFetch(() =>
      jsonResponse(
        {
          message: 'Invalid input',
          code: 'bad_request',
          requestId: 'r',
          fields: { email: 'Invalid email address' },
        },
        400,
      ),
    );
    renderWithProviders(<ContactForm />);
    fill(valid);
    fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(screen.getByText('Invalid email address')).toBeVisible());
  });
});
