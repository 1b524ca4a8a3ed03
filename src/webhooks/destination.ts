// Where a webhook may go: https to public addresses only, so that a community cannot make the
// service call into its own network (loopback, private ranges, link-local, metadata services). A
// URL is checked when an endpoint is saved and again at every delivery, and each address a name
// resolves to is checked at connect time by the lookup the request connects through, so the
// address checked is the address connected to (a name that answers a public address to the check
// and a private one to the connect gets nowhere). Pure, but for the DNS lookup.
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address is refused, or undefined when it is a public unicast address. */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  // Only global unicast passes: every other range (private, loopback, link-local, CGNAT, ULA,
  // multicast, reserved, documentation, 6to4 and NAT64 forms that embed an IPv4 address) is refused.
  return range === 'unicast' ? undefined : `${parsed.toString()} is a ${rangeNames[range] ?? range} address`;
}

const rangeNames: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  uniqueLocal: 'unique local (fc00::/7)',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  reserved: 'reserved',
};

export interface DestinationRules {
  /** WEBHOOK_ALLOW_PRIVATE: private and loopback addresses and plain http pass (tests only). */
  allowPrivate: boolean;
}

/** A URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why a URL is refused as a destination, before any lookup: not https, credentials in it, or a
 * literal address that is not public. Undefined when it may be tried (a name is checked at lookup).
 */
export function refusedUrl(text: string, rules: DestinationRules): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url is not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(rules.allowPrivate && url.protocol === 'http:')) return 'url must be https';
  if (url.username || url.password) return 'url must not carry a user name or password';
  const host = hostOf(url);
  if (!host) return 'url has no host';
  if (isIP(host) && !rules.allowPrivate) {
    const refused = refusedAddress(host);
    if (refused) return `url is refused: ${refused}`;
  }
  return undefined;
}

/** A name lookup as node's dns.lookup answers it with `all: true`. */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** Every address of a name, each checked; an error naming the first refused. */
export async function checkedAddresses(host: string, rules: DestinationRules, resolve: Resolver): Promise<LookupAddress[]> {
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (addresses.length === 0) throw new DestinationRefused(`${host} has no address`);
  if (!rules.allowPrivate) {
    for (const { address } of addresses) {
      const refused = refusedAddress(address);
      if (refused) throw new DestinationRefused(`${host} resolves to a refused address: ${refused}`);
    }
  }
  return addresses;
}

/** A destination the rules refuse (at save or at connect). */
export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node's http(s).request: resolves the name itself and answers only addresses that
 * passed the check, so the socket connects to a checked address.
 */
export function checkingLookup(rules: DestinationRules, resolve: Resolver = systemResolver) {
  return (host: string, options: LookupOptions, callback: LookupCallback): void => {
    checkedAddresses(host, rules, resolve).then(
      (addresses) => {
        const fitting = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (fitting.length === 0)
          return callback(Object.assign(new Error(`${host} has no IPv${options.family} address`), { code: 'ENOTFOUND' }), '');
        if (options.all) callback(null, fitting);
        else callback(null, fitting[0]!.address, fitting[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
