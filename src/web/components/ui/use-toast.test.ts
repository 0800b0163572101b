// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { reducer, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from './use-toast';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from './toast';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './tooltip-delays';

describe('toasts (docs/product-rules.md, Client behaviour)', () => {
  it('uses the spec constants', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(TOAST_SWIPE_THRESHOLD_PX).toBe(50);
    expect(TOOLTIP_DELAY_MS).toBe(700);
    expect(TOOLTIP_SKIP_DELAY_MS).toBe(300);
  });

  it('shows one toast at a time, the newest', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: { id: '1', title: 'first' } });
    state = reducer(state, { type: 'ADD_TOAST', toast: { id: '2', title: 'second' } });
    expect(state.toasts.map((t) => t.id)).toEqual(['2']);
  });

  it('closes a dismissed toast and removes it later', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: { id: '1', open: true } });
    state = reducer(state, { type: 'DISMISS_TOAST', toastId: '1' });
    expect(state.toasts[0]?.open).toBe(false);
    state = reducer(state, { type: 'REMOVE_TOAST', toastId: '1' });
    expect(state.toasts).toEqual([]);
  });
});
