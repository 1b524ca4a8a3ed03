import test from 'ava';
import type { ExecutionContext } from 'ava';
import { Agent, createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import supertest from 'supertest';
import type { Response, Test } from 'supertest';
import { createApp } from '../../src/app.ts';
import { clientAddress, isHttps, proxyTrust, rateLimitIdentity } from '../../src/http/client.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, ev, ingest, tenant } from '../helpers/seed.ts';

// The controller's per-IP limits (docs/api.md, Rate limits). Three environments: `big` with the default limits
// (600 per minute, 20 on the sign-in/setup paths), `small` with a controller limit of 10, both
// behind a trusted proxy (127.0.0.1) so X-Forwarded-For picks the client; `untrusted` trusts no
// proxy. Tests keep apart by client IP; only the serial tests move `big`'s clock.

const trustedProxies = '127.0.0.1,::1,::ffff:127.0.0.1';
const minute = 60_000;

interface Served extends TestEnv {
  /** A supertest client of one listening server (a new server per request is slower). */
  http: ReturnType<typeof supertest>;
  server: Server;
}

// Keep-alive connections: the bursts below are hundreds of requests.
const keepAlive = new Agent({ keepAlive: true, maxSockets: 16 });

async function served(options: Record<string, string>): Promise<Served> {
  const env = await testEnv(options);
  const app = createApp(env.deps);
  // A client that drops its socket right after the last byte of a streamed tile makes Koa report
  // ERR_STREAM_PREMATURE_CLOSE although the answer was whole (the tests check it): not printed.
  app.on('error', (err: { code?: string }) => {
    if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error(err);
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { ...env, server, http: supertest(server) };
}

let big: Served;
let small: Served;
let untrusted: Served;
test.before(async () => {
  [big, small, untrusted] = await Promise.all([
    served({ TRUSTED_PROXIES: trustedProxies, RATE_DATA_STANDARD: '100000' }),
    served({ TRUSTED_PROXIES: trustedProxies, RATE_CONTROLLER: '10', RATE_DATA_STANDARD: '100000' }),
    served({ RATE_CONTROLLER: '10' }),
  ]);
});
test.after.always(async () => {
  keepAlive.destroy();
  for (const env of [big, small, untrusted]) {
    if (!env) continue;
    await new Promise((resolve) => env.server.close(resolve));
    await env.close();
  }
});

/** Runs n requests, a few at a time, all at the current clock time; returns their statuses. */
async function burst(n: number, make: (i: number) => Test, concurrency = 16): Promise<number[]> {
  const statuses: number[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      statuses[i] = (await make(i)).status;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return statuses;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
const from = (req: Test, ip: string) => req.set('X-Forwarded-For', ip);
const health = (env: Served, ip: string) => from(env.http.get('/api/health'), ip);
/** The cheapest counted call: a controller route without a session, 401 once past the limiter. */
const probe = (env: Served, ip: string) => from(env.http.get('/api/servers'), ip).agent(keepAlive);
const windowStart = (env: TestEnv) => Math.ceil(env.clock.now() / minute) * minute;

function assertRateLimited(t: ExecutionContext, res: Response, note = ''): number {
  t.is(res.status, 429, `${note} ${res.status} ${JSON.stringify(res.body)}`);
  assertSchema(t, 'error.json', res.body);
  t.is(res.body.error, 'RATE_LIMITED', note);
  const retryAfter = res.headers['retry-after'];
  t.regex(String(retryAfter), /^[1-9][0-9]*$/, `${note}: Retry-After is whole seconds >= 1`);
  t.is(res.body.retryAfter, Number(retryAfter), note);
  return Number(retryAfter);
}

/** How many requests sliding-window.lua lets through with `previous` in the last window and none yet in this one. */
function slidingAllowance(limit: number, previous: number, elapsedMs: number, windowMs = minute): number {
  const weighted = (previous * (windowMs - elapsedMs)) / windowMs;
  let allowed = 0;
  while (weighted + allowed + 1 <= limit) allowed += 1;
  return allowed;
}

test.serial('the controller default: 600 requests per minute per IP pass, the 601st is refused', async (t) => {
  const start = windowStart(big) + 1000;
  big.clock.set(start);
  const statuses = await burst(600, () => probe(big, '198.51.100.1'));
  t.is(count(statuses, 401), 600, `statuses: ${[...new Set(statuses)].join(',')}`);
  const refused = await health(big, '198.51.100.1');
  // The window ends in 59 s, where the 600 still weigh 600; 0.1 s later one request fits.
  t.is(assertRateLimited(t, refused, '601st'), 60, 'the time until a request is admitted, in whole seconds');
  // Every /api path of that IP is refused now, whatever its route.
  assertRateLimited(t, await from(big.http.get('/api/setup/status'), '198.51.100.1'), 'setup status');
  assertRateLimited(t, await from(big.http.get('/api/servers'), '198.51.100.1'), 'servers');
  assertRateLimited(t, await from(big.http.get('/api/no-such-route'), '198.51.100.1'), 'an unknown /api path');
  // Another IP has its own budget.
  t.is((await health(big, '198.51.100.2')).status, 200);
  // A client that waits Retry-After is admitted; a second less is not enough.
  big.clock.set(start + 59_000);
  assertRateLimited(t, await health(big, '198.51.100.1'), 'after 59 s');
  big.clock.set(start + 60_000);
  t.is((await probe(big, '198.51.100.1')).status, 401, 'after Retry-After: past the limiter');
});

test.serial('the window slides: a full burst at the end of a minute still counts after the boundary', async (t) => {
  const ip = '198.51.100.3';
  const start = windowStart(big);
  big.clock.set(start + minute - 1000);
  t.is(count(await burst(600, () => probe(big, ip)), 401), 600);
  // Right after the boundary a fixed window would start from zero; the sliding one holds ~600.
  big.clock.set(start + minute);
  t.is(slidingAllowance(600, 600, 0), 0);
  const atBoundary = await burst(10, () => probe(big, ip));
  t.is(count(atBoundary, 429), 10);
  assertRateLimited(t, await health(big, ip), 'right after the boundary');
  // Half a minute later half of the old burst has slid out: 300 pass, the rest is refused.
  big.clock.set(start + minute + minute / 2);
  const expected = slidingAllowance(600, 600, minute / 2);
  t.is(expected, 300);
  const half = await burst(expected + 20, () => probe(big, ip));
  t.is(count(half, 401), expected);
  t.is(count(half, 429), 20);
});

test('sign-in and setup have a tighter cap of 20 per minute per IP; reading the setup state does not spend it; other paths still pass', async (t) => {
  const ip = '198.51.100.4';
  const logins = await burst(
    10,
    (i) => from(big.http.post('/api/auth/login'), ip).send({ username: `nobody-${i}`, password: 'wrong password' }),
    4,
  );
  t.is(count(logins, 401), 10);
  // The dashboard asks the setup state at every page load: an admin reloading 30 times in a minute.
  t.is(count(await burst(30, () => from(big.http.get('/api/setup/status'), ip)), 200), 30);
  const setups = await burst(10, () =>
    from(big.http.post('/api/setup/admin'), ip).send({ accountName: 'a', username: 'b', password: 'short' }),
  );
  t.is(count(setups, 400), 10, `statuses: ${[...new Set(setups)].join(',')}`);
  // The 21st attempt on either path is refused, by the limiter rather than by the lockout.
  assertRateLimited(t, await from(big.http.post('/api/auth/login'), ip).send({ username: 'someone', password: 'x' }), '21st, login');
  assertRateLimited(
    t,
    await from(big.http.post('/api/setup/admin'), ip).send({ accountName: 'a', username: 'b', password: 'cccccccccccc' }),
    'setup admin',
  );
  // Spellings that reach the same routes count against the same cap.
  assertRateLimited(
    t,
    await from(big.http.post('/api/auth/login/'), ip).send({ username: 'someone', password: 'x' }),
    'login with a trailing slash',
  );
  assertRateLimited(
    t,
    await from(big.http.post('/api/setup/admin/'), ip).send({ accountName: 'a', username: 'b', password: 'cccccccccccc' }),
    'setup admin with a trailing slash',
  );
  // The same IP still reads the setup state and other controller paths, within the default limit.
  t.is((await from(big.http.get('/api/setup/status'), ip)).status, 200, 'the setup state is still read');
  t.is((await health(big, ip)).status, 200);
  t.is((await from(big.http.get('/api/servers'), ip)).status, 401, 'a 401, not a 429');
  t.is((await from(big.http.post('/api/auth/logout'), ip)).status, 401, 'logout is not on the sign-in cap');
  // And another IP still signs in.
  t.is((await from(big.http.post('/api/auth/login'), '198.51.100.5').send({ username: 'someone', password: 'x' })).status, 401);
});

test('map tiles are never limited', async (t) => {
  const ip = '198.51.100.10';
  const tile = () => from(small.http.get('/api/maps/tiles/chernarusplus/0/0/0.png'), ip);
  const tiles = await burst(25, tile);
  t.is(count(tiles, 200), 25, 'more than the limit of 10, all served');
  // With the IP's controller budget spent, tiles are still served and a missing one is a 404.
  await burst(10, () => health(small, ip));
  assertRateLimited(t, await health(small, ip));
  const again = await tile();
  t.is(again.status, 200);
  t.is(again.headers['content-type'], 'image/png');
  t.is(again.headers['ratelimit-limit'], undefined);
  const missing = await from(small.http.get('/api/maps/tiles/chernarusplus/9/9/9.png'), ip);
  t.is(missing.status, 404);
});

test('/api/v1/* is not counted by the controller limit', async (t) => {
  const ip = '198.51.100.11';
  const a = await tenant(small.deps);
  const dataCall = () => from(small.http.get('/api/v1/data/servers'), ip).set('X-Service-Api-Key', a.key);
  t.is(count(await burst(25, dataCall), 200), 25);
  // The IP's controller budget is whole: 10 pass, the 11th is refused.
  t.is(count(await burst(10, () => health(small, ip)), 200), 10);
  assertRateLimited(t, await health(small, ip));
  t.is((await dataCall()).status, 200, 'the Data API keeps its own limits');
});

test('ingest calls with an ingest token are not counted by the controller limit', async (t) => {
  const ip = '198.51.100.12';
  const a = await tenant(small.deps);
  const push = (i: number) => from(ingest(small, a, [ev.status(small.clock.now() - 1000 + i)]), ip);
  t.is(count(await burst(25, push, 4), 200), 25);
  t.is(count(await burst(10, () => health(small, ip)), 200), 10);
  assertRateLimited(t, await health(small, ip));
  t.is((await push(99)).status, 200, 'ingest still accepted from the limited IP');
});

test('another IP has its own budget', async (t) => {
  t.is(count(await burst(10, () => health(small, '198.51.100.13')), 200), 10);
  assertRateLimited(t, await health(small, '198.51.100.13'));
  t.is((await health(small, '198.51.100.14')).status, 200);
  // The nearest untrusted hop counts: a client-supplied entry to its left does not.
  assertRateLimited(t, await health(small, '203.0.113.77, 198.51.100.13'), 'a spoofed leftmost entry');
});

test('IPv6 clients in the same /64 share a budget, another /64 does not', async (t) => {
  t.is(count(await burst(10, (i) => health(small, `2001:db8:aa:1::${i + 1}`)), 200), 10);
  assertRateLimited(t, await health(small, '2001:db8:aa:1:ffff:ffff:ffff:fffe'), 'same /64');
  assertRateLimited(t, await health(small, '2001:0db8:00aa:0001:0000:0000:0000:0abc'), 'same /64, written out');
  t.is((await health(small, '2001:db8:aa:2::1')).status, 200, 'the next /64');
  t.is((await health(small, '2001:db8:ab:1::1')).status, 200, 'another /48');
  // An IPv4-mapped address is the IPv4 client.
  t.is(count(await burst(10, () => health(small, '198.51.100.15')), 200), 10);
  assertRateLimited(t, await health(small, '::ffff:198.51.100.15'), 'IPv4-mapped');
});

test('X-Forwarded-For from an untrusted peer is ignored: all such requests share one budget', async (t) => {
  const statuses = await burst(10, (i) => from(untrusted.http.get('/api/health'), `203.0.113.${i + 1}`));
  t.is(count(statuses, 200), 10);
  assertRateLimited(t, await from(untrusted.http.get('/api/health'), '203.0.113.200'), 'a new X-Forwarded-For');
  assertRateLimited(t, await from(untrusted.http.get('/api/health'), '2001:db8::1'), 'an IPv6 X-Forwarded-For');
  assertRateLimited(t, await untrusted.http.get('/api/health'), 'no X-Forwarded-For');
});

// Unit properties of src/http/client.ts.

const fakeRequest = (peer: string | undefined, forwardedFor?: string, proto?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': proto },
  }) as unknown as IncomingMessage;
const canonical = (address: string) => ipaddr.process(address).toString();
const anyIp = fc.oneof(fc.ipV4(), fc.ipV6());
const ipList = fc
  .array(fc.oneof(anyIp, fc.constantFrom('unknown', '', ' ', '_hidden', 'garbage')), { maxLength: 6 })
  .map((xs) => xs.join(', '));
const anyHeader = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), ipList, fc.constant(undefined));

test('clientAddress never takes X-Forwarded-For from an untrusted peer', (t) => {
  fc.assert(
    fc.property(
      anyIp,
      fc.array(fc.oneof(anyIp, fc.constantFrom('10.0.0.0/8', '2001:db8::/32')), { maxLength: 3 }),
      anyHeader,
      (peer, trusted, header) => {
        const trust = proxyTrust(trusted);
        fc.pre(!trust(peer));
        const address = clientAddress(fakeRequest(peer, header), trust);
        return address === canonical(peer) && address === clientAddress(fakeRequest(peer), trust);
      },
    ),
    { numRuns: 500 },
  );
  fc.assert(fc.property(anyIp, anyHeader, (peer, header) => clientAddress(fakeRequest(peer, header), proxyTrust([])) === canonical(peer)));
  t.pass();
});

test('clientAddress behind a trusted proxy takes the nearest untrusted hop', (t) => {
  const trust = proxyTrust(['127.0.0.1', '10.0.0.0/8']);
  fc.assert(
    fc.property(anyHeader, (header) => {
      const address = clientAddress(fakeRequest('127.0.0.1', header), trust);
      const hops = String(header ?? '')
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean);
      const candidates = new Set(['127.0.0.1', ...hops.map((h) => (ipaddr.isValid(h) ? canonical(h) : h.slice(0, 64)))]);
      return candidates.has(address);
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(
      anyIp,
      fc.array(
        fc.ipV4().map((ip) => `10.${ip.split('.').slice(1).join('.')}`),
        { maxLength: 3 },
      ),
      ipList,
      (client, proxies, spoofed) => {
        fc.pre(!trust(client));
        const header = [spoofed, client, ...proxies].filter(Boolean).join(', ');
        return clientAddress(fakeRequest('::ffff:127.0.0.1', header), trust) === canonical(client);
      },
    ),
    { numRuns: 300 },
  );
  t.is(clientAddress(fakeRequest('127.0.0.1', '198.51.100.9, 10.1.2.3'), trust), '198.51.100.9');
  t.is(clientAddress(fakeRequest('127.0.0.1', '10.1.2.3'), trust), '10.1.2.3', 'every hop trusted: the leftmost');
  t.is(clientAddress(fakeRequest('127.0.0.1'), trust), '127.0.0.1');
  t.is(clientAddress(fakeRequest('198.51.100.1', '203.0.113.5'), trust), '198.51.100.1');
  t.is(clientAddress(fakeRequest(undefined, '203.0.113.5'), trust), '', 'no peer address, nothing believed');
});

test('isHttps believes X-Forwarded-Proto only from a trusted proxy', (t) => {
  const trust = proxyTrust(['10.0.0.0/8']);
  fc.assert(
    fc.property(fc.ipV4(), fc.constantFrom('https', 'HTTPS', 'https, http', 'http', ''), (peer, proto) => {
      const expected = trust(peer) && proto.split(',')[0]!.trim().toLowerCase() === 'https';
      return isHttps(fakeRequest(peer, undefined, proto), trust) === expected;
    }),
  );
  t.true(isHttps(fakeRequest('10.9.9.9', undefined, 'https'), trust));
  t.false(isHttps(fakeRequest('198.51.100.1', undefined, 'https'), trust));
});

test('proxyTrust matches addresses and CIDR ranges, IPv4-mapped as IPv4, nothing else', (t) => {
  const trust = proxyTrust(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);
  fc.assert(
    fc.property(fc.ipV4(), (ip) => {
      const expected = ip.startsWith('10.') || ip === '192.0.2.7';
      return trust(ip) === expected && trust(`::ffff:${ip}`) === expected;
    }),
  );
  fc.assert(
    fc.property(fc.ipV6(), (ip) => {
      const parsed = ipaddr.process(ip);
      const expected =
        parsed.kind() === 'ipv6'
          ? parsed.match(ipaddr.parseCIDR('2001:db8::/32'))
          : parsed.toString().startsWith('10.') || parsed.toString() === '192.0.2.7';
      return trust(ip) === expected;
    }),
  );
  fc.assert(
    fc.property(fc.string(), (s) => {
      fc.pre(!ipaddr.isValid(s));
      return trust(s) === false;
    }),
  );
  fc.assert(fc.property(anyIp, (ip) => proxyTrust([])(ip) === false));
  t.false(trust('192.0.2.8'));
  t.true(trust('2001:db8:ffff::1'));
  t.false(trust('2001:db9::1'));
});

const hextet = fc.integer({ min: 0, max: 0xffff });
const v6 = (parts: number[]) => parts.map((p) => p.toString(16)).join(':');

test('rateLimitIdentity: IPv4 per address, IPv6 per /64', (t) => {
  fc.assert(
    fc.property(
      fc.array(hextet, { minLength: 4, maxLength: 4 }),
      fc.array(hextet, { minLength: 4, maxLength: 4 }),
      fc.array(hextet, { minLength: 4, maxLength: 4 }),
      (prefix, a, b) => {
        // (An IPv4-mapped address is its IPv4 client, not a /64: left to the IPv4 property below.)
        fc.pre(ipaddr.process(v6([...prefix, ...a])).kind() === 'ipv6' && ipaddr.process(v6([...prefix, ...b])).kind() === 'ipv6');
        return rateLimitIdentity(v6([...prefix, ...a])) === rateLimitIdentity(v6([...prefix, ...b]));
      },
    ),
  );
  fc.assert(
    fc.property(
      fc.array(hextet, { minLength: 4, maxLength: 4 }),
      fc.array(hextet, { minLength: 4, maxLength: 4 }),
      fc.array(hextet, { minLength: 8, maxLength: 8 }),
      (p, q, rest) => {
        const x = v6([...p, ...rest.slice(4)]);
        const y = v6([...q, ...rest.slice(4)]);
        fc.pre(p.some((v, i) => v !== q[i]) && ipaddr.process(x).kind() === 'ipv6' && ipaddr.process(y).kind() === 'ipv6');
        return rateLimitIdentity(x) !== rateLimitIdentity(y);
      },
    ),
  );
  fc.assert(
    fc.property(
      fc.ipV4(),
      fc.ipV4(),
      (a, b) =>
        rateLimitIdentity(a) === a &&
        rateLimitIdentity(`::ffff:${a}`) === a &&
        (a === b) === (rateLimitIdentity(a) === rateLimitIdentity(b)),
    ),
  );
  t.is(rateLimitIdentity('2001:db8:0:1::1'), rateLimitIdentity('2001:DB8:0:1:ffff:ffff:ffff:ffff'));
  t.not(rateLimitIdentity('2001:db8:0:1::1'), rateLimitIdentity('2001:db8:0:2::1'));
  t.is(rateLimitIdentity(''), 'unknown');
});

test('rateLimitIdentity and clientAddress answer the same for an address asked again (they remember), for any text', (t) => {
  const trust = proxyTrust([]);
  const anyAddress = fc.oneof(fc.ipV4(), fc.ipV6(), fc.string(), fc.string({ minLength: 60, maxLength: 300 }));
  fc.assert(
    fc.property(anyAddress, (address) => {
      const first = [rateLimitIdentity(address), clientAddress(fakeRequest(address, ''), trust)];
      return (
        first[0] === rateLimitIdentity(address) && first[1] === clientAddress(fakeRequest(address, ''), trust) && first[1]!.length <= 64
      );
    }),
  );
  t.is(rateLimitIdentity('::ffff:203.0.113.9'), '203.0.113.9');
});
