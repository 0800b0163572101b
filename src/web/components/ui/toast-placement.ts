/**
 * Where the toast goes (docs/rules/screens-shared.md, Client behaviour): at the bottom of the screen,
 * above a fixed bottom bar and above a phone's on-screen keyboard, so that on a phone it never
 * covers the page's header; and at the top, just below the header, when the control being used (the
 * focused field with its form, so a Send button too) lies under the bottom area. Pure: the toaster
 * measures the page and this decides.
 */

/** A rectangle in viewport pixels, as `getBoundingClientRect` answers it. */
export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface PlacementInput {
  /** The visible viewport: the window less a phone's on-screen keyboard. */
  viewport: { width: number; height: number };
  /** The toast viewport as it stands now (its padding included): its height and horizontal span. */
  toast: { height: number; left: number; right: number };
  /** The page's header, when it shows at the top of the screen. */
  header: Box | null;
  /** A fixed bar along the bottom of the screen (`data-bottom-bar`), if any. */
  bottomBar: Box | null;
  /** The control being used, if any. */
  focused: Box | null;
  /** The page's other controls on screen (buttons, links, fields), which a toast should not cover. */
  controls?: readonly Box[];
}

export interface ToastPlacement {
  edge: 'top' | 'bottom';
  /** Pixels between that edge of the window and the toast viewport. */
  offset: number;
}

function overlap(a: Box, b: Box): number {
  const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return width > 0 && height > 0 ? width * height : 0;
}

export function placeToast({
  viewport,
  toast,
  header,
  bottomBar,
  focused,
  controls = [],
}: PlacementInput): ToastPlacement {
  const bottomOffset = bottomBar ? Math.max(0, viewport.height - bottomBar.top) : 0;
  const topOffset = header ? Math.min(Math.max(0, header.bottom), viewport.height / 2) : 0;
  const bottom = { edge: 'bottom', offset: bottomOffset } as const;
  const top = { edge: 'top', offset: topOffset } as const;
  const span = { left: toast.left, right: toast.right };
  const bottomArea = {
    ...span,
    top: viewport.height - bottomOffset - toast.height,
    bottom: viewport.height - bottomOffset,
  };
  const topArea = { ...span, top: topOffset, bottom: topOffset + toast.height };
  // Not the control being used, but a button or a link the person may press next (the Sign In
  // under the card just used on a phone): the toast goes to the top when nothing is there to cover.
  const coversControls = (area: Box) => controls.some((control) => overlap(area, control) > 0);
  const isBottomInTheWay = () => coversControls(bottomArea) && !coversControls(topArea);
  if (!focused) return isBottomInTheWay() ? top : bottom;
  const coveredAtBottom = overlap(bottomArea, focused);
  if (coveredAtBottom === 0) {
    return isBottomInTheWay() && overlap(topArea, focused) === 0 ? top : bottom;
  }
  // Both edges cover part of a tall control: the one that covers less of it.
  return overlap(topArea, focused) < coveredAtBottom ? top : bottom;
}

/** What a person presses: the page's buttons, links and fields. */
const CONTROLS = 'button, a[href], input, select, textarea, [role="button"]';

/**
 * The controls of the page's main content on screen, which the toast should leave uncovered: not
 * those of the header (the toast never covers it) nor of the toast itself.
 */
export function visibleControlBoxes(doc: Document, viewportHeight: number): Box[] {
  const main = doc.querySelector('main');
  if (!main) return [];
  const boxes: Box[] = [];
  for (const control of main.querySelectorAll(CONTROLS)) {
    const box = control.getBoundingClientRect();
    if (box.bottom > 0 && box.top < viewportHeight && box.right > box.left && box.bottom > box.top)
      boxes.push(box);
  }
  return boxes;
}

/** A form taller than this share of the screen is not "the control": only its focused field is. */
const WHOLE_FORM_SHARE = 0.5;

/**
 * The control being used: the focused element, with its form when the form is small enough to be
 * one control (a message box and its Send button). Nothing when focus is on the page itself or in
 * the toast (F8).
 */
export function focusedControlBox(
  doc: Document,
  toastViewport: Element | null,
  viewportHeight: number,
): Box | null {
  const active = doc.activeElement;
  if (!active || active === doc.body || active === doc.documentElement) return null;
  if (toastViewport?.contains(active)) return null;
  const field = active.getBoundingClientRect();
  const form = active.closest('form')?.getBoundingClientRect();
  if (form && form.bottom - form.top <= viewportHeight * WHOLE_FORM_SHARE) {
    return {
      top: Math.min(form.top, field.top),
      bottom: Math.max(form.bottom, field.bottom),
      left: Math.min(form.left, field.left),
      right: Math.max(form.right, field.right),
    };
  }
  return field;
}

/** The page's header where it shows at the top of the screen: its bottom edge below the top. */
export function headerBox(doc: Document): Box | null {
  let lowest: Box | null = null;
  for (const header of doc.querySelectorAll('header')) {
    const box = header.getBoundingClientRect();
    if (box.top <= 0.5 && box.bottom > 0 && (!lowest || box.bottom > lowest.bottom)) lowest = box;
  }
  return lowest;
}

/** The highest fixed bottom bar (`data-bottom-bar`), if any shows. */
export function bottomBarBox(doc: Document, viewportHeight: number): Box | null {
  let highest: Box | null = null;
  for (const bar of doc.querySelectorAll('[data-bottom-bar]')) {
    const box = bar.getBoundingClientRect();
    if (box.bottom > box.top && box.top < viewportHeight && (!highest || box.top < highest.top))
      highest = box;
  }
  return highest;
}
