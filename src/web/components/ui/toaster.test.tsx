// @vitest-environment jsdom
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installDomStubs } from '../../test-support/render';
import { Toaster } from './toaster';
import { dismissToasts, toast } from './use-toast';

/**
 * The toast never covers the control being used and stays clear of the header on a phone
 * (docs/rules/screens-shared.md, Client behaviour). jsdom lays nothing out: the boxes are given.
 */
installDomStubs();

let width = 390;
const HEIGHT = 800;
const boxes = new Map<string, [top: number, bottom: number, left: number, right: number]>();

beforeEach(() => {
  vi.spyOn(window, 'innerWidth', 'get').mockImplementation(() => width);
  vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(HEIGHT);
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const key = this.dataset.edge ? 'toast' : (this.dataset.box ?? this.tagName.toLowerCase());
    const [top, bottom, left, right] = boxes.get(key) ?? [0, 0, 0, 0];
    return {
      top,
      bottom,
      left,
      right,
      width: right - left,
      height: bottom - top,
      x: left,
      y: top,
    } as DOMRect;
  });
});
afterEach(() => {
  act(() => dismissToasts());
  vi.restoreAllMocks();
  boxes.clear();
});

function Page({ bottomBar = false }: { bottomBar?: boolean }) {
  return (
    <>
      <header>My Orders</header>
      <main>
        <input aria-label="Search" data-box="search" />
        <form data-box="composer">
          <textarea aria-label="Message" data-box="message" />
          <button type="submit">Send</button>
        </form>
      </main>
      {bottomBar ? <nav data-bottom-bar data-box="bar" /> : null}
      <Toaster />
    </>
  );
}

const viewport = () => document.querySelector<HTMLElement>('[data-edge]');

describe('the toast viewport', () => {
  it('on a phone shows at the bottom, clear of the header, and moves below the header while the message box there is used', async () => {
    width = 390;
    boxes.set('header', [0, 64, 0, 390]);
    boxes.set('toast', [700, 800, 0, 390]);
    boxes.set('search', [80, 120, 16, 374]);
    boxes.set('composer', [660, 790, 16, 374]);
    boxes.set('message', [660, 740, 16, 374]);
    render(<Page />);
    act(() => void toast({ title: 'New message', description: 'Sol Seller wrote about order ORD-7F3K9Q.' }));
    await screen.findByText('New message');
    expect(viewport()?.dataset.edge).toBe('bottom');
    expect(viewport()?.style.bottom).toBe('0px');

    act(() => screen.getByLabelText('Message').focus());
    await waitFor(() => expect(viewport()?.dataset.edge).toBe('top'));
    expect(viewport()?.style.top).toBe('64px');
    expect(viewport()?.style.bottom).toBe('');

    // Typing in a field near the top: back to the bottom, the header stays clear.
    act(() => screen.getByLabelText('Search').focus());
    await waitFor(() => expect(viewport()?.dataset.edge).toBe('bottom'));
  });

  it('keeps above a fixed bottom bar', async () => {
    width = 390;
    boxes.set('toast', [640, 740, 0, 390]);
    boxes.set('bar', [740, 800, 0, 390]);
    render(<Page bottomBar />);
    act(() => void toast({ title: 'Order updated' }));
    await screen.findByText('Order updated');
    await waitFor(() => expect(viewport()?.style.bottom).toBe('60px'));
  });

  it('on a wide screen stays at the bottom right unless the focused control is under it', async () => {
    width = 1280;
    boxes.set('header', [0, 64, 0, 1280]);
    boxes.set('toast', [700, 800, 860, 1280]);
    boxes.set('composer', [600, 780, 40, 700]);
    boxes.set('message', [600, 700, 40, 700]);
    render(<Page />);
    act(() => void toast({ title: 'New message' }));
    await screen.findByText('New message');
    act(() => screen.getByLabelText('Message').focus());
    // The message box is at the left: the toast at the right covers none of it.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(viewport()?.dataset.edge).toBe('bottom');

    boxes.set('composer', [600, 780, 800, 1240]);
    boxes.set('message', [600, 700, 800, 1240]);
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    await waitFor(() => expect(viewport()?.dataset.edge).toBe('top'));
  });
});
