/**
 * What a person types into the first screen before React has hydrated it
 * (docs/decisions/0014-first-load.md, The first screen in the HTML, Typing before hydration).
 *
 * The server's HTML shows real text boxes at once, and a phone may take a second or two more to
 * run the page's code. React keeps a value typed meanwhile on screen but not in its state, so the
 * search did not filter and the next render of a message box emptied it. And Enter there did
 * nothing, or submitted the form the browser's own way (a GET of the page with the fields in its
 * address). So until hydration, Enter in a text box and form submissions are held (React, whose
 * listeners sit on the same element, never sees them); once it has committed, each text box's
 * typed value is handed to React as its own change, and in the next task, once React has rendered
 * those, the held Enter presses and submissions are replayed in order.
 *
 * A click on a button is held the same way: before hydration no handler listens, so a tap on Log
 * out, Add to Cart or Accept did nothing at all. A submit button of a form is left to the browser,
 * whose submission is then held as above; links are the browser's own and never held.
 */

import { useLayoutEffect } from 'react';
import { useIsHydrating } from './use-has-hydrated';

/**
 * The attribute of the transparent cover main.tsx lays over a server-rendered page from its first
 * script until hydration starts: presses land on it, and nothing of the page takes them.
 */
export const BEFORE_HYDRATION_ATTRIBUTE = 'data-before-hydration';

/** Text boxes whose typing React must learn of; buttons, checkboxes, files and the like are not. */
const NOT_TYPED = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

type TextBox = HTMLInputElement | HTMLTextAreaElement;

function isTextBox(target: EventTarget | null): target is TextBox {
  return (
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && !NOT_TYPED.has(target.type))
  );
}

type Held =
  | { kind: 'enter'; box: TextBox; init: KeyboardEventInit }
  | { kind: 'submit'; form: HTMLFormElement; submitter: HTMLElement | null }
  | { kind: 'click'; button: HTMLButtonElement; signature: string };

/**
 * What tells one button from the others to a person: its name and test id. A control React renders
 * again in another place of its tree right after hydration (a menu's trigger once the menu's code has
 * loaded, components/deferred-control.tsx) is a new element with the same signature.
 */
function signatureOf(button: HTMLButtonElement): string {
  return JSON.stringify([
    button.getAttribute('aria-label'),
    button.dataset['testid'] ?? null,
    button.textContent?.trim() ?? '',
  ]);
}

/** The held button, or the one that replaced it since, if exactly one has its signature. */
function currentButton(container: HTMLElement, held: { button: HTMLButtonElement; signature: string }) {
  if (held.button.isConnected) return held.button;
  const same = Array.from(container.querySelectorAll('button')).filter(
    (button) => signatureOf(button) === held.signature,
  );
  return same.length === 1 ? same[0] : undefined;
}

/** A button whose click only the page's code answers: not one that submits its form. */
function clickedButtonOf(target: EventTarget | null): HTMLButtonElement | undefined {
  if (!(target instanceof Element)) return undefined;
  const button = target.closest('button');
  if (!button || button.disabled) return undefined;
  if (button.type === 'submit' && button.form) return undefined;
  return button;
}

/** Sets a text box's value as the browser does when typing, past React's watch on `value`. */
function setAsTyped(box: TextBox, value: string): void {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(box) as object, 'value')?.set?.call(box, value);
  box.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Hands a value on screen to React as a change. React remembers, per text box, the value it last
 * saw, and reports a change only when the box's value differs from it; it first sees a box when
 * hydrating it, which happens later for a box inside a Suspense boundary (React hydrates those
 * after the rest, or at once when an event reaches one). So the server's value is put back first,
 * as typed: React hydrates the box if it had not and now remembers that value; then the typed value,
 * which React reports to the page as a change.
 */
function handToReact(box: TextBox, typed: string): void {
  const start = box.selectionStart;
  const end = box.selectionEnd;
  setAsTyped(box, box.defaultValue);
  setAsTyped(box, typed);
  if (start !== null && end !== null && box.ownerDocument.activeElement === box)
    box.setSelectionRange(start, end);
}

/** The button that submits a form when Enter is pressed in one of its text boxes (HTML's default button). */
function defaultButtonOf(form: HTMLFormElement): HTMLButtonElement | HTMLInputElement | undefined {
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLButtonElement && element.type === 'submit') return element;
    if (element instanceof HTMLInputElement && (element.type === 'submit' || element.type === 'image'))
      return element;
  }
  return undefined;
}

/** What a held Enter does once the page listens: the page's own key handler first, else the browser's. */
function replayEnter(box: TextBox, init: KeyboardEventInit): void {
  if (!box.isConnected) return;
  const event = new KeyboardEvent('keydown', { ...init, bubbles: true, cancelable: true });
  if (!box.dispatchEvent(event)) return;
  if (box instanceof HTMLTextAreaElement) {
    box.setRangeText('\n', box.selectionStart, box.selectionEnd, 'end');
    handToReact(box, box.value);
    return;
  }
  const form = box.form;
  if (!form) return;
  const button = defaultButtonOf(form);
  if (button) {
    if (!button.disabled) button.click();
  } else {
    form.requestSubmit();
  }
}

/** Replays held presses and submissions in order. */
function replay(container: HTMLElement, actions: readonly Held[]): void {
  for (const action of actions) {
    if (action.kind === 'enter') {
      replayEnter(action.box, action.init);
    } else if (action.kind === 'click') {
      const button = currentButton(container, action);
      if (button && !button.disabled) button.click();
    } else if (action.form.isConnected) {
      const { submitter } = action;
      if (submitter?.isConnected) action.form.requestSubmit(submitter);
      else action.form.requestSubmit();
    }
  }
}

interface EarlyInput {
  /**
   * Hands React what was typed into the text boxes it has hydrated, and replays what was held in
   * the next task. Called as the root's hydration commits, and again as a lazy page's Suspense
   * boundary, which React hydrates after the rest, commits (`AfterHydration`).
   */
  release: () => void;
}

let current: EarlyInput | null = null;

/** Starts holding Enter, submissions and button clicks in `container`, the #root the server rendered. */
export function holdEarlyInput(container: HTMLElement): EarlyInput {
  const held: Held[] = [];
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || event.isComposing || !isTextBox(event.target)) return;
    if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push({ kind: 'enter', box: event.target, init: { key: 'Enter', code: event.code } });
  };
  const onSubmit = (event: SubmitEvent) => {
    if (!(event.target instanceof HTMLFormElement)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push({ kind: 'submit', form: event.target, submitter: event.submitter });
  };
  const onClick = (event: MouseEvent) => {
    const button = clickedButtonOf(event.target);
    if (!button) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push({ kind: 'click', button, signature: signatureOf(button) });
  };
  container.addEventListener('keydown', onKeyDown, true);
  container.addEventListener('submit', onSubmit, true);
  container.addEventListener('click', onClick, true);

  current = {
    release: () => {
      // From now on React answers Enter itself, hydrating a boundary first where it must.
      container.removeEventListener('keydown', onKeyDown, true);
      container.removeEventListener('submit', onSubmit, true);
      container.removeEventListener('click', onClick, true);
      // What differs from the server's value was typed here (or put back by the browser on return).
      // A box React has not hydrated yet misses it for now, and gets it with its boundary.
      for (const box of Array.from(container.querySelectorAll('input, textarea'))) {
        if (isTextBox(box) && box.value !== box.defaultValue) handToReact(box, box.value);
      }
      const actions = held.splice(0);
      if (actions.length > 0) setTimeout(() => replay(container, actions), 0);
    },
  };
  return current;
}

/**
 * Rendered last in a tree that hydrates the server's HTML: in the root (main.tsx) and in every
 * Suspense boundary (components/suspense.tsx). Its layout effect runs as that part's hydration commits,
 * before anything renders again, and releases the early input. Where the server rendered nothing
 * (the browser rendered the app from the start), nothing was held and it does nothing.
 */
export function AfterHydration(): null {
  const isHydrating = useIsHydrating();
  // Only as hydration commits: a part the browser renders later (a tab opened, a tooltip's code come)
  // has nothing typed to hand over, and a box being typed into then (a number box React leaves
  // unsynced while it has the focus) must not be handed its own value again.
  useLayoutEffect(() => {
    if (isHydrating) current?.release();
  }, [isHydrating]);
  return null;
}
