import { describe, expect, it } from 'vitest';
import { placeToast, type Box, type PlacementInput } from './toast-placement';

// Where the toast goes (docs/rules/screens-shared.md, Client behaviour).
const box = (top: number, bottom: number, left: number, right: number): Box => ({ top, bottom, left, right });

const phone: PlacementInput = {
  viewport: { width: 390, height: 800 },
  toast: { height: 100, left: 0, right: 390 },
  header: box(0, 64, 0, 390),
  bottomBar: null,
  focused: null,
};
const desktop: PlacementInput = {
  viewport: { width: 1280, height: 800 },
  toast: { height: 100, left: 860, right: 1280 },
  header: box(0, 64, 0, 1280),
  bottomBar: null,
  focused: null,
};

describe('placeToast', () => {
  it('puts the toast at the bottom, clear of the header, when nothing is being used', () => {
    expect(placeToast(phone)).toEqual({ edge: 'bottom', offset: 0 });
    expect(placeToast(desktop)).toEqual({ edge: 'bottom', offset: 0 });
  });

  it('moves below the header when a button the person may press next lies under the bottom area', () => {
    // The visitor's Sign In of the message card at the bottom of a phone's screen, after Add to Cart.
    const signIn = box(720, 756, 40, 140);
    const addToCart = box(400, 444, 16, 374);
    expect(placeToast({ ...phone, focused: addToCart, controls: [addToCart, signIn] })).toEqual({
      edge: 'top',
      offset: 64,
    });
    expect(placeToast({ ...phone, controls: [signIn] })).toEqual({ edge: 'top', offset: 64 });
    // Controls under both edges: the bottom, as before.
    expect(placeToast({ ...phone, controls: [signIn, box(80, 120, 16, 374)] })).toEqual({
      edge: 'bottom',
      offset: 0,
    });
    // A control beside the toast's area on a wide screen is not under it.
    expect(placeToast({ ...desktop, controls: [box(720, 756, 40, 140)] })).toEqual({
      edge: 'bottom',
      offset: 0,
    });
  });

  it('keeps above a fixed bottom bar', () => {
    expect(placeToast({ ...phone, bottomBar: box(740, 800, 0, 390) })).toEqual({
      edge: 'bottom',
      offset: 60,
    });
  });

  it('moves below the header when the control being used lies under the bottom area', () => {
    // A message box and its Send button at the bottom of a phone's screen.
    expect(placeToast({ ...phone, focused: box(690, 790, 16, 374) })).toEqual({ edge: 'top', offset: 64 });
    // Just above the toast's area: it stays.
    expect(placeToast({ ...phone, focused: box(600, 699, 16, 374) })).toEqual({ edge: 'bottom', offset: 0 });
    // Under the area once a bottom bar lifts it.
    expect(
      placeToast({ ...phone, focused: box(600, 680, 16, 374), bottomBar: box(740, 800, 0, 390) }),
    ).toEqual({
      edge: 'top',
      offset: 64,
    });
  });

  it('on a wide screen moves only for a control under the toast, not one beside it', () => {
    expect(placeToast({ ...desktop, focused: box(720, 780, 900, 1200) })).toEqual({
      edge: 'top',
      offset: 64,
    });
    expect(placeToast({ ...desktop, focused: box(720, 780, 40, 800) })).toEqual({
      edge: 'bottom',
      offset: 0,
    });
  });

  it('with a control taller than the screen covers the least of it, and never hides a header lower than mid-screen', () => {
    const tall = box(50, 780, 16, 374);
    expect(placeToast({ ...phone, focused: tall })).toEqual({ edge: 'bottom', offset: 0 });
    expect(placeToast({ ...phone, header: box(0, 700, 0, 390), focused: box(690, 790, 16, 374) })).toEqual({
      edge: 'top',
      offset: 400,
    });
    expect(placeToast({ ...phone, header: null, focused: box(690, 790, 16, 374) })).toEqual({
      edge: 'top',
      offset: 0,
    });
  });
});
