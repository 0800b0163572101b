import { useEffect, useState, type ReactNode } from 'react';
import type { ToastActionElement, ToastProps } from './toast';

/**
 * One toast at a time; a dismissed toast is removed after 1,000,000 ms
 * (docs/product-rules.md, Client behaviour). A live notice (`notice`) never takes the place of a
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
  | { type: 'ADD_TOAST'; toast: ToasterToast }
  | { type: 'ADD_NOTICE'; toast: ToasterToast }
  | { type: 'UPDATE_TOAST'; toast: Partial<ToasterToast> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

interface State {
  toasts: ToasterToast[];
  /** The id of the toast showing when it is a live notice, which the next toast may replace. */
  noticeShowing?: string;
  /** The newest live notice that came while a toast of the person's own was showing. */
  held?: ToasterToast;
}

const show = (state: State, toast: ToasterToast): ToasterToast[] =>
  [toast, ...state.toasts].slice(0, TOAST_LIMIT);

let count = 0;
function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return count.toString();
}

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(toastId: string): void {
  if (removeTimeouts.has(toastId)) return;
  const timeout = setTimeout(() => {
    removeTimeouts.delete(toastId);
    dispatch({ type: 'REMOVE_TOAST', toastId });
  }, TOAST_REMOVE_DELAY_MS);
  removeTimeouts.set(toastId, timeout);
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'ADD_TOAST':
      // The person's own toast shows at once; a notice held behind the one it replaces waits on.
      return { toasts: show(state, action.toast), held: state.held };
    case 'ADD_NOTICE': {
      const showing = state.toasts.find((t) => t.open !== false);
      if (showing && showing.id !== state.noticeShowing) return { ...state, held: action.toast };
      return { toasts: show(state, action.toast), noticeShowing: action.toast.id };
    }
    case 'UPDATE_TOAST':
      return {
        ...state,
        toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)),
      };
    case 'DISMISS_TOAST': {
      const { toastId } = action;
      // Closing every toast (a sheet opening) drops the held notice too: nothing shows over the sheet.
      if (toastId === undefined) return { toasts: state.toasts.map((t) => ({ ...t, open: false })) };
      const closed = state.toasts.map((t) => (t.id === toastId ? { ...t, open: false } : t));
      const stillShowing = closed.some((t) => t.open !== false);
      if (state.held && !stillShowing)
        return { toasts: show({ toasts: closed }, state.held), noticeShowing: state.held.id };
      return { ...state, toasts: closed };
    }
    case 'REMOVE_TOAST':
      if (action.toastId === undefined) return { toasts: [] };
      return { ...state, toasts: state.toasts.filter((t) => t.id !== action.toastId) };
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

function raise(type: 'ADD_TOAST' | 'ADD_NOTICE', props: ToastInput) {
  const id = genId();
  const dismiss = () => dispatch({ type: 'DISMISS_TOAST', toastId: id });
  const update = (next: ToastInput) => dispatch({ type: 'UPDATE_TOAST', toast: { ...next, id } });
  dispatch({
    type,
    toast: {
      ...props,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss();
      },
    },
  });
  return { id, dismiss, update };
}

/** Shows a toast about the person's own action from anywhere (components, mutation callbacks). */
export function toast(props: ToastInput) {
  return raise('ADD_TOAST', props);
}

/**
 * Shows a live notice of what someone else did (docs/product-rules.md, Live updates): at once over
 * an earlier notice, but after the toast of the person's own action showing, once that one closes.
 */
export function notice(props: ToastInput) {
  return raise('ADD_NOTICE', props);
}

/**
 * Closes whatever toast is showing. A sheet that opens calls it, so no toast covers the sheet's
 * own buttons (docs/product-rules.md, Client behaviour).
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

  return {
    ...state,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: 'DISMISS_TOAST', toastId }),
  };
}
