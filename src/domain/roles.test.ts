import { describe, expect, it } from 'vitest';
import { displayName, headerLinksFor } from './roles';
import { safeReturnTo } from './auth';

describe('displayName', () => {
  it('joins first and last name when both exist', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', role: 'buyer' })).toBe('Ada Lovelace');
  });
  it('falls back to the capitalised role word', () => {
    expect(displayName({ firstName: 'Ada', lastName: null, role: 'seller' })).toBe('Seller');
    expect(displayName({ firstName: ' ', lastName: 'X', role: 'driver' })).toBe('Driver');
  });
});

describe('headerLinksFor', () => {
  it('gives each role its links and the admin all four', () => {
    expect(headerLinksFor('buyer').map((l) => l.label)).toEqual(['My Orders']);
    expect(headerLinksFor('seller').map((l) => l.label)).toEqual(['Seller Dashboard']);
    expect(headerLinksFor('driver').map((l) => l.label)).toEqual(['Driver Dashboard']);
    expect(headerLinksFor('admin').map((l) => l.href)).toEqual([
      '/buyer/orders',
      '/seller/dashboard',
      '/driver/dashboard',
      '/admin',
    ]);
  });
});

describe('safeReturnTo', () => {
  it('keeps relative paths of this site', () => {
    expect(safeReturnTo('/buyer/orders?x=1')).toBe('/buyer/orders?x=1');
  });
  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    '/api/logout',
    42,
  ])('refuses %s', (value) => {
    expect(safeReturnTo(value)).toBe('/');
  });
});
