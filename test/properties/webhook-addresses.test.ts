import test from 'ava';
import fc from 'fast-check';
import { refusedAddress, refusedUrl } from '../../src/webhooks/destination.ts';

// The address classifier of webhook destinations (src/webhooks/destination.ts): every address of
// the ranges a community must not reach is refused, in IPv4, IPv6 and IPv4-mapped IPv6 forms alike;
// addresses of public blocks pass; no text makes it throw.

const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const cidr4 = (base: string, bits: number) => {
  const start = base.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  return fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => v4(start + offset));
};
const hex16 = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
/** An IPv6 address whose first 16-bit group is drawn from [min, max], the rest at random. */
const v6Group = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.array(hex16, { minLength: 7, maxLength: 7 }))
    .map(([first, rest]) => [first.toString(16), ...rest].join(':'));

const refusedV4 = fc.oneof(
  cidr4('127.0.0.0', 8),
  cidr4('10.0.0.0', 8),
  cidr4('172.16.0.0', 12),
  cidr4('192.168.0.0', 16),
  cidr4('169.254.0.0', 16),
  cidr4('100.64.0.0', 10),
  cidr4('224.0.0.0', 4),
  cidr4('0.0.0.0', 8),
  fc.constant('255.255.255.255'),
);
const refusedV6 = fc.oneof(
  v6Group(0xfc00, 0xfdff), // unique local fc00::/7
  v6Group(0xfe80, 0xfebf), // link-local fe80::/10
  v6Group(0xff00, 0xffff), // multicast
  fc.constantFrom('::1', '::', '0:0:0:0:0:0:0:1'),
);
/** Blocks of global unicast addresses with nothing special inside. */
const publicV4 = fc.oneof(cidr4('8.0.0.0', 8), cidr4('93.184.0.0', 16), cidr4('151.101.0.0', 16));
const publicV6 = v6Group(0x2600, 0x260f);

test('every address of a refused range is refused, also written as IPv4-mapped IPv6', (t) => {
  fc.assert(
    fc.property(refusedV4, (address) => {
      t.truthy(refusedAddress(address), address);
      t.truthy(refusedAddress(`::ffff:${address}`), `::ffff:${address}`);
      t.truthy(refusedUrl(`https://${address}/hook`, { allowPrivate: false }));
      t.truthy(refusedUrl(`https://[::ffff:${address}]/hook`, { allowPrivate: false }));
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(refusedV6, (address) => {
      t.truthy(refusedAddress(address), address);
      t.truthy(refusedUrl(`https://[${address}]:8443/hook`, { allowPrivate: false }));
    }),
    { numRuns: 500 },
  );
});

test('public unicast addresses pass, in either form', (t) => {
  fc.assert(
    fc.property(publicV4, (address) => {
      t.is(refusedAddress(address), undefined, address);
      t.is(refusedAddress(`::ffff:${address}`), undefined);
      t.is(refusedUrl(`https://${address}/hook`, { allowPrivate: false }), undefined);
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(publicV6, (address) => t.is(refusedAddress(address), undefined, address)),
    { numRuns: 300 },
  );
});

test('the classifier and the URL check answer any text without throwing; only https passes without WEBHOOK_ALLOW_PRIVATE', (t) => {
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), fc.boolean(), (text, allowPrivate) => {
      const verdict = refusedAddress(text);
      t.true(verdict === undefined || typeof verdict === 'string');
      const url = refusedUrl(text, { allowPrivate });
      t.true(url === undefined || typeof url === 'string');
      if (url === undefined && !allowPrivate) t.is(new URL(text).protocol, 'https:');
    }),
    { numRuns: 1000 },
  );
  t.is(refusedUrl('http://93.184.216.34/hook', { allowPrivate: false }), 'url must be https');
  t.is(refusedUrl('http://127.0.0.1:9/hook', { allowPrivate: true }), undefined);
  t.regex(refusedUrl('https://u:p@93.184.216.34/', { allowPrivate: false })!, /user name or password/);
  t.regex(refusedUrl('ftp://93.184.216.34/', { allowPrivate: true })!, /https/);
});
