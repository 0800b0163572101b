import { describe, expect, it } from 'vitest';
import { isPublicAddress, publicAddressesOf } from './public-address';

describe('isPublicAddress (docs/decisions/0023-accounts-an-attacker-cannot-bend.md)', () => {
  it.each([
    '127.0.0.1',
    '127.5.6.7',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.51.100.7',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '2001:db8::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '2607:f8b0:4005:80a::200e', '2a00:1450:4001::1'])(
    'takes %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('needs every resolved address public, and a name that resolves', async () => {
    const resolve = async (name: string) =>
      ({ 'push.example.com': ['93.184.216.34'], 'mixed.example.com': ['93.184.216.34', '10.0.0.1'] })[name] ??
      Promise.reject(new Error('ENOTFOUND'));
    expect(await publicAddressesOf('push.example.com', resolve)).toEqual(['93.184.216.34']);
    expect(await publicAddressesOf('mixed.example.com', resolve)).toBeNull();
    expect(await publicAddressesOf('nowhere.example.com', resolve)).toBeNull();
    expect(await publicAddressesOf('[::1]', resolve)).toBeNull();
  });
});
