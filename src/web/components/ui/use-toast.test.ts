// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dismissToasts,
  notice,
  reducer,
  toast,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  useToast,
} from './use-toast';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from './toast';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './tooltip-delays';

describe('toasts (docs/rules/screens-shared.md, Client behaviour)', () => {
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

  describe("a live notice and the toast of the person's own action", () => {
    afterEach(() => act(() => dismissToasts()));

    const showing = (toasts: ReturnType<typeof useToast>['toasts']) =>
      toasts.filter((t) => t.open !== false).map((t) => t.title);

    it('keeps the own toast showing when a notice comes, and shows the newest notice once it closes', () => {
      const { result } = renderHook(() => useToast());
      let saved: ReturnType<typeof toast> | undefined;
      act(() => {
        saved = toast({ title: 'Settings updated' });
      });
      act(() => {
        notice({ title: 'New order' });
        notice({ title: 'Order updated' });
      });
      expect(showing(result.current.toasts)).toEqual(['Settings updated']);
      act(() => saved?.dismiss());
      expect(showing(result.current.toasts)).toEqual(['Order updated']);
    });

    it('lets a notice replace a notice, and the own toast replace a notice', () => {
      const { result } = renderHook(() => useToast());
      act(() => {
        notice({ title: 'New order' });
        notice({ title: 'New message' });
      });
      expect(showing(result.current.toasts)).toEqual(['New message']);
      act(() => {
        toast({ title: 'Failed to send message' });
      });
      expect(showing(result.current.toasts)).toEqual(['Failed to send message']);
    });

    it('drops the held notice when every toast is closed (a sheet opening)', () => {
      const { result } = renderHook(() => useToast());
      act(() => {
        toast({ title: 'Added to cart' });
        notice({ title: 'New order' });
      });
      act(() => dismissToasts());
      expect(showing(result.current.toasts)).toEqual([]);
    });
  });
});
