// @vitest-environment jsdom
import { act } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { CART_STORAGE_KEY } from './cart-store';
import { useCart } from './use-cart';

// React's act() in a plain test file (testing-library sets this for its own renders).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const LAMP = { id: 'p1', name: 'Lamp', price: '12.50', sellerId: 's1', quantity: 2 };

function CartCount() {
  const { count } = useCart();
  return <p>{count} in the cart</p>;
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  window.localStorage.clear();
});

describe('useCart on a page the server rendered (docs/decisions/0014-first-load.md)', () => {
  it('hydrates the server’s empty cart without a mismatch, then shows the stored one', async () => {
    // The server cannot read local storage: its HTML has no cart.
    const container = document.createElement('div');
    container.innerHTML = renderToString(<CartCount />);
    document.body.append(container);
    expect(container.textContent).toBe('0 in the cart');

    window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify([LAMP]));
    const recoverableErrors: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container, <CartCount />, {
        onRecoverableError: (error) => recoverableErrors.push(error),
      });
    });

    expect(recoverableErrors).toEqual([]);
    expect(container.textContent).toBe('2 in the cart');
  });

  it('shows the stored cart in its first render when the browser renders it alone', () => {
    window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify([LAMP]));
    const container = document.createElement('div');
    document.body.append(container);
    const seen: string[] = [];
    function Recorded() {
      const { count } = useCart();
      seen.push(`${count}`);
      return <p>{count} in the cart</p>;
    }

    act(() => {
      root = createRoot(container);
      root.render(<Recorded />);
    });

    expect(container.textContent).toBe('2 in the cart');
    // Never an empty cart first: a page opened in the app shows the cart at once.
    expect(seen.every((count) => count === '2')).toBe(true);
  });
});
