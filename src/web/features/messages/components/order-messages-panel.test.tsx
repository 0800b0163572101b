// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OrderMessage } from '@domain/messages';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { OrderMessagesPanel } from './order-messages-panel';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const ORDER = '00000000-0000-4000-8000-0000000000a1';
const ME = '00000000-0000-4000-8000-000000000001';
const SELLER = '00000000-0000-4000-8000-000000000002';

const message = (overrides: Partial<OrderMessage>): OrderMessage => ({
  id: 'm1',
  orderId: ORDER,
  senderId: SELLER,
  content: 'It leaves today.',
  createdAt: '2026-11-23T16:00:00.000Z',
  sender: { firstName: 'Sol', lastName: 'Seller', role: 'seller' },
  ...overrides,
});

/** The conversation as the server keeps it; POST adds to it, or fails with `failWith`. */
function server(options: { failWith?: number } = {}) {
  const stored: OrderMessage[] = [message({})];
  const fetchMock = mockFetch((url, init) => {
    if (url === `/api/messages/order/${ORDER}`) return jsonResponse(stored);
    if (url === '/api/messages/unread') return jsonResponse({ total: 0, threads: [] });
    if (url === '/api/messages' && init?.method === 'POST') {
      if (options.failWith)
        return jsonResponse({ message: 'Too many', code: 'rate_limited', requestId: 'r' }, options.failWith);
      const body = JSON.parse(String(init.body)) as { content: string };
      const sent = message({
        id: `m${stored.length + 1}`,
        senderId: ME,
        content: body.content.trim(),
        sender: { firstName: 'Bea', lastName: 'Buyer', role: 'buyer' },
      });
      stored.push(sent);
      return jsonResponse(sent, 201);
    }
    return undefined;
  });
  const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
  return { posts };
}

const box = () => screen.getByRole('textbox', { name: 'Message about this order' });

describe('the order messages panel (docs/rules/selling.md, Reviews and messages)', () => {
  it('shows the conversation with who wrote it, in a 400 px area', async () => {
    server();
    renderWithProviders(<OrderMessagesPanel orderId={ORDER} viewerId={ME} />);
    const log = await screen.findByRole('log', { name: 'Messages' });
    expect(await within(log).findByText('It leaves today.')).toBeVisible();
    expect(within(log).getByText(/^Sol Seller · Seller · Nov 23, 2026 · 10:00 AM CST$/)).toBeVisible();
    expect(log.style.height).toBe('400px');
  });

  it('sends with Enter, adds a line with Shift+Enter, and never sends blank text', async () => {
    const { posts } = server();
    renderWithProviders(<OrderMessagesPanel orderId={ORDER} viewerId={ME} />);
    await screen.findByText('It leaves today.');
    const send = screen.getByRole('button', { name: 'Send' });

    fireEvent.change(box(), { target: { value: '   \n  ' } });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(posts()).toHaveLength(0);

    fireEvent.change(box(), { target: { value: 'Thanks' } });
    const shiftEnter = fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true });
    // Shift+Enter is left to the text box, which adds the line; nothing is sent.
    expect(shiftEnter).toBe(true);
    expect(posts()).toHaveLength(0);

    fireEvent.change(box(), { target: { value: 'Thanks\nsee you' } });
    const enter = fireEvent.keyDown(box(), { key: 'Enter' });
    expect(enter).toBe(false);
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(String(posts()[0]?.[1]?.body))).toEqual({ orderId: ORDER, content: 'Thanks\nsee you' });
    expect(
      await screen.findByText('Thanks see you', { normalizer: (t) => t.replace(/\s+/g, ' ') }),
    ).toBeVisible();
    await waitFor(() => expect(box()).toHaveProperty('value', ''));
  });

  it('caps the text at 2,000 characters', async () => {
    server();
    renderWithProviders(<OrderMessagesPanel orderId={ORDER} viewerId={ME} />);
    await screen.findByText('It leaves today.');
    expect(box().getAttribute('maxlength')).toBe('2000');
    fireEvent.change(box(), { target: { value: 'x'.repeat(1900) } });
    expect(screen.getByText('1,900 / 2,000 characters')).toBeVisible();
  });

  it('keeps the text and says "Failed to send message" when sending fails', async () => {
    server({ failWith: 500 });
    renderWithProviders(<OrderMessagesPanel orderId={ORDER} viewerId={ME} />);
    await screen.findByText('It leaves today.');
    fireEvent.change(box(), { target: { value: 'Hello?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Failed to send message')).toBeVisible();
    expect(box()).toHaveProperty('value', 'Hello?');
  });
});
