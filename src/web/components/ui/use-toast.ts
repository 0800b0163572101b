import { useEffect, useState, type ReactNode } from 'react';
import type { ToastActionElement, ToastProps } from './toast';

/**
 * One toast at a time; a dismissed toast is removed after 1,000,000 ms
 * (docs/rules/screens-shared.md, Client behaviour). A live notice (`notice`) never takes the place of a
 * toast about the person's own action: it waits until that one closes.
 */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToasterToast = ToastProps & {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  action?: ToastActionElement;
};

type Action =
  // `notice`: a live notice of what someone else did, which waits while the person's own toast shows.
  | { type: 'ADD_TOAST'; toast: ToasterToast; notice?: boolean }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId: string };

interface State {
  toasts: ToasterToast[];
  /** The id of the toast showing when it is a live notice, which the next toast may replace. */
  noticeShowing?: string | false;
  /** The newest live notice that came while a toast of the person's own was showing. */
  held?: ToasterToast;
}

let count = 0;

/** Removes a dismissed toast later; removing one already gone changes nothing. */
function scheduleRemoval(toastId: string): void {
  setTimeout(() => dispatch({ type: 'REMOVE_TOAST', toastId }), TOAST_REMOVE_DELAY_MS);
}

export function reducer(state: State, action: Action): State {
  const { toasts, held } = state;
  switch (action.type) {
    case 'ADD_TOAST': {
      const { toast, notice } = action;
      const showing = toasts.find((t) => t.open !== false);
      if (notice && showing && showing.id !== state.noticeShowing) return { ...state, held: toast };
      // A notice held behind the person's own toast that this one replaces waits on.
      return {
        toasts: [toast, ...toasts].slice(0, TOAST_LIMIT),
        held,
        noticeShowing: notice && toast.id,
      };
    }
    case 'DISMISS_TOAST': {
      const { toastId } = action;
      const closed = toasts.map((t) =>
        toastId === undefined || t.id === toastId ? { ...t, open: false } : t,
      );
      // Closing every toast (a sheet opening) drops the held notice too: nothing shows over the sheet.
      if (toastId === undefined) return { toasts: closed };
      return held && !closed.some((t) => t.open !== false)
        ? reducer({ toasts: closed }, { type: 'ADD_TOAST', toast: held, notice: true })
        : { ...state, toasts: closed };
    }
    case 'REMOVE_TOAST':
      return { ...state, toasts: toasts.filter((t) => t.id !== action.toastId) };
  }
}

const listeners = new Set<(state: State) => void>();
let memoryState: State = { toasts: [] };

function dispatch(action: Action): void {
  // Side effect kept out of the reducer: dismissed toasts are removed later.
  if (action.type === 'DISMISS_TOAST') {
    const ids = action.toastId === undefined ? memoryState.toasts.map((t) => t.id) : [action.toastId];
    ids.forEach(scheduleRemoval);
  }
  memoryState = reducer(memoryState, action);
  listeners.forEach((listener) => listener(memoryState));
}

export type ToastInput = Omit<ToasterToast, 'id'>;

function raise(props: ToastInput, notice?: boolean) {
  const id = String(++count);
  const dismiss = () => dispatch({ type: 'DISMISS_TOAST', toastId: id });
  dispatch({
    type: 'ADD_TOAST',
    notice,
    toast: {
      ...props,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss();
      },
    },
  });
  return { id, dismiss };
}

/** Shows a toast about the person's own action from anywhere (components, mutation callbacks). */
export function toast(props: ToastInput) {
  return raise(props);
}

/**
 * Shows a live notice of what someone else did (docs/rules/live-updates.md, Live updates): at once over
 * an earlier notice, but after the toast of the person's own action showing, once that one closes.
 */
export function notice(props: ToastInput) {
  return raise(props, true);
}

/**
 * Closes whatever toast is showing. A sheet that opens calls it, so no toast covers the sheet's
 * own buttons (docs/rules/screens-shared.md, Client behaviour).
 */
export function dismissToasts(): void {
  dispatch({ type: 'DISMISS_TOAST' });
}

export function useToast() {
  const [state, setState] = useState<State>(memoryState);

  useEffect(() => {
    listeners.add(setState);
    // A toast raised between this render and now (the viewport mounts after the first load,
    // docs/decisions/0014-first-load.md) is taken in here rather than missed.
    setState(memoryState);
    return () => {
      listeners.delete(setState);
    };
  }, []);

  return state;
}
