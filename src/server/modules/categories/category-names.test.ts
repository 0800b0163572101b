import { describe, expect, it } from 'vitest';
import { DEFAULT_CATEGORIES } from '../../../domain/categories';
import { categorySkeleton, findLookAlike } from './category-names';

/** Category names that read the same (docs/rules/known-differences.md, Admin; docs/rules/running.md, Bad input and failure). */

describe('categorySkeleton', () => {
  it('reads case, invisible characters, compatibility forms and look-alike letters as the same name', () => {
    const books = categorySkeleton('Books');
    for (const name of [
      'BOOKS',
      'Books\u200B',
      'Bo\u2060oks',
      'B\u043Eoks', // Cyrillic о
      'B\u043E\u043Eks',
      '\u0412ooks', // Cyrillic В
      '\uFF22\uFF4F\uFF4F\uFF4B\uFF53', // full-width
      'Bo\u0585ks', // Armenian օ
      'Books\u202E',
      ' Books ',
    ]) {
      expect(categorySkeleton(name), JSON.stringify(name)).toBe(books);
    }
    expect(categorySkeleton('Home  &\u00A0Garden')).toBe(categorySkeleton('Home & Garden'));
    expect(categorySkeleton('Sports \uFB01shing')).toBe(categorySkeleton('Sports fishing'));
  });

  it('keeps names that read differently apart', () => {
    expect(categorySkeleton('Books')).not.toBe(categorySkeleton('Boots'));
    expect(categorySkeleton('Toys & Games')).not.toBe(categorySkeleton('Toys and Games'));
    expect(categorySkeleton('书籍')).not.toBe(categorySkeleton('书'));
    const defaults = new Set(DEFAULT_CATEGORIES.map(categorySkeleton));
    expect(defaults.size).toBe(DEFAULT_CATEGORIES.length);
  });
});

describe('findLookAlike', () => {
  const categories = [
    { id: 'a', name: 'Books' },
    { id: 'b', name: 'Electronics' },
  ];

  it('finds another category that reads the same, never the one being renamed', () => {
    expect(findLookAlike(categories, 'B\u043Eoks')).toEqual({ id: 'a', name: 'Books' });
    expect(findLookAlike(categories, 'ELECTRONICS', 'a')).toEqual({ id: 'b', name: 'Electronics' });
    expect(findLookAlike(categories, 'BOOKS', 'a')).toBeUndefined();
    expect(findLookAlike(categories, 'Garden')).toBeUndefined();
  });
});
