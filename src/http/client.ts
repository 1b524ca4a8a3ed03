// Who is calling: the client address (X-Forwarded-For believed only from trusted proxies),
// whether the request came over HTTPS, and the id a per-IP limit counts (IPv6 per /64).
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

export type ProxyTrust = (address: string) => boolean;

export function proxyTrust(trusted: string[]): ProxyTrust {
  const ranges = trusted.map((entry) =>
    entry.includes('/') ? ipaddr.parseCIDR(entry) : ipaddr.parseCIDR(`${entry}/${ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128}`),
  );
  return (address) => {
    if (ranges.length === 0 || !ipaddr.isValid(address)) return false;
    const ip = normalise(ipaddr.parse(address));
    return ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
  };
}

const normalise = (ip: ipaddr.IPv4 | ipaddr.IPv6) =>
  ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;

/** The client's address: the socket peer, or, behind trusted proxies, the nearest untrusted X-Forwarded-For hop. */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust): string {
  let address = req.socket.remoteAddress ?? '';
  if (trust(address)) {
    const hops = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      address = hops[i]!;
      if (!trust(address)) break;
    }
  }
  return canonical(address);
}

/**
 * Parsing an address costs a few microseconds, paid on every request of a limited route; the
 * same clients come back on their connections, so the results of the last ones are remembered.
 * Only texts as long as an address can be are kept (an X-Forwarded-For hop can be any text).
 */
const remembered = <T extends string>(work: (address: string) => T) => {
  const cache = new LRUCache<string, T>({ max: 10_000 });
  return (address: string): T => {
    if (address.length > 64) return work(address);
    let value = cache.get(address);
    if (value === undefined) cache.set(address, (value = work(address)));
    return value;
  };
};

/** The address as one spelling (IPv4-mapped IPv6 as IPv4, IPv6 compressed); not an address: cut to 64 characters. */
const canonical = remembered((address) => (ipaddr.isValid(address) ? normalise(ipaddr.parse(address)).toString() : address.slice(0, 64)));

export function isHttps(req: IncomingMessage, trust: ProxyTrust): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (!trust(req.socket.remoteAddress ?? '')) return false;
  return (
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]!
      .trim()
      .toLowerCase() === 'https'
  );
}

/** What a per-IP limit counts: the IPv4 address, or the /64 network of an IPv6 address. */
export const rateLimitIdentity = remembered((address) => {
  if (!ipaddr.isValid(address)) return address || 'unknown';
  const ip = normalise(ipaddr.parse(address));
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
});
