// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { THEME_INIT_SCRIPT, THEME_STORAGE_KEY } from '@domain/first-screen';

/** index.html's inline script, run as the browser runs it before the first paint. */
const runThemeScript = () => new Function(THEME_INIT_SCRIPT)() as void;

afterEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
});

describe('the stored theme before the first paint (docs/rules/screens-shared.md, Client behaviour)', () => {
  it('is dark when the app stored dark, and light otherwise', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    runThemeScript();
    expect(document.documentElement.classList.contains('dark')).toBe(true);

    document.documentElement.className = '';
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
    runThemeScript();
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });

  it('leaves the page light, without an error, where storage is refused', () => {
    const getItem = Storage.prototype.getItem;
    Storage.prototype.getItem = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    try {
      expect(runThemeScript).not.toThrow();
      expect(document.documentElement.classList.contains('dark')).toBe(false);
    } finally {
      Storage.prototype.getItem = getItem;
    }
  });
});
