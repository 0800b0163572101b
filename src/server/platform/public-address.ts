import dns from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Whether the server may connect to an address a client named (a push endpoint): only a public one
 * (docs/decisions/0023-accounts-an-attacker-cannot-bend.md, Push only to public addresses). Every
 * range that is not the public internet is refused, and the IPv6 forms that embed an IPv4 address
 * (mapped, NAT64, 6to4, Teredo) whatever they embed.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127], // unspecified and loopback
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // IPv4-mapped (::ffff:a.b.c.d in any spelling): refused whatever it maps. Not a BlockList rule,
    // which would also match every IPv4 address checked as ipv4.
    const normal = new URL(`http://[${address}]/`).hostname;
    if (normal.startsWith('[::ffff:')) return false;
  }
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Every address a name resolves to (a stand-in is passed by tests). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The addresses of a URL's host, when every one of them is public; otherwise (or when it does not
 * resolve) null. An address written in the URL is taken as it is.
 */
export async function publicAddressesOf(hostname: string, resolve: ResolveHost): Promise<string[] | null> {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  let addresses: string[];
  if (isIP(bare) !== 0) addresses = [bare];
  else {
    try {
      addresses = await resolve(bare);
    } catch {
      return null;
    }
  }
  return addresses.length > 0 && addresses.every(isPublicAddress) ? addresses : null;
}
