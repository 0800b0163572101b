import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText } from './text';

describe('text the database can store', () => {
  it('accepts ordinary text, emoji and accents', () => {
    expect(isStorableText('Café 🚲 — 10% off')).toBe(true);
  });

  it('refuses a NUL and unpaired surrogates, but not a whole pair', () => {
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('\uD83D')).toBe(false);
    expect(isStorableText('x\uDE00')).toBe(false);
    expect(isStorableText('\uD83D\uDE00')).toBe(true);
  });

  it('names where in a request the bad text is, keys included', () => {
    expect(findUnstorableText({ a: { b: ['ok', 'bad\u0000'] } })).toBe('a.b.1');
    expect(findUnstorableText({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findUnstorableText({ a: 1, b: null, c: 'fine' })).toBeUndefined();
    expect(findUnstorableText('\uDC00')).toBe('value');
  });
});
