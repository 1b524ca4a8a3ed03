// The rate limit in leases: in one process the exact limiter's decisions and headers with far fewer
// Redis calls; across processes never more admitted than the exact limiter allows; concurrent
// requests of a key share a lease; unspent tokens go back at the next window; a Redis outage lets
// requests through.
import test from 'ava';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { RateLeases, takeLeasedToken } from '../../src/http/rate-leases.ts';
import { rateKey } from '../../src/store/keys.ts';
import type { Deps } from '../../src/deps.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const minute = 60_000;
const windowStart = () => Math.ceil(env.clock.now() / minute) * minute;

type LeaseCall = Deps['redis']['slidingWindow'];
const leaseCall: LeaseCall = (...args) => env.deps.redis.slidingWindow(...args);

/** A process of its own: its own leases, the shared Redis (its lease calls through `call`), and a count of its Redis calls. */
function aProcess(call = leaseCall) {
  const counted = { calls: 0 };
  const slidingWindow: LeaseCall = (...args) => {
    counted.calls += 1;
    return call(...args);
  };
  const redis = Object.assign(Object.create(env.deps.redis) as Deps['redis'], { slidingWindow });
  const deps = { redis, clock: env.clock, log: env.deps.log, caches: { rateLeases: new RateLeases() } };
  return { deps, counted };
}

// Serial: the tests move the one clock of this file's environment.
test.serial("in one process: the exact limiter's counts and headers, with a Redis call for a handful of requests", async (t) => {
  const { deps, counted } = aProcess();
  const id = randomUUID();
  env.clock.set(windowStart() + 1000);
  const remaining: number[] = [];
  for (let i = 0; i < 600; i++) {
    const d = await takeLeasedToken(deps, 'test', id, 600);
    t.true(d.allowed);
    remaining.push(d.remaining);
  }
  t.deepEqual(
    remaining,
    Array.from({ length: 600 }, (_, i) => 599 - i),
  );
  const refused = await takeLeasedToken(deps, 'test', id, 600);
  // As the exact limiter's: to the window's end, and then until this window's weight lets one in.
  t.like(refused, { allowed: false, remaining: 0, resetMs: minute - 1000, retryAfterMs: minute - 1000 + 100 });
  t.true(counted.calls < 100, `${counted.calls} calls for 601 requests`);
  t.is(
    Number(await env.deps.redis.get(rateKey('test', id, Math.floor(env.clock.now() / minute)))),
    600,
    'every admitted request counted, no more',
  );
});

test.serial("the window slides as the exact limiter's: a burst at the end of one window still counts early in the next", async (t) => {
  const { deps } = aProcess();
  const id = randomUUID();
  const take = async (n: number) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) if ((await takeLeasedToken(deps, 'test', id, 10)).allowed) allowed += 1;
    return allowed;
  };
  const start = windowStart();
  env.clock.set(start + minute - 100);
  t.is(await take(10), 10);
  env.clock.set(start + minute);
  t.is(await take(10), 0);
  env.clock.set(start + minute + minute / 2);
  t.is(await take(10), 5);
  env.clock.set(start + 3 * minute);
  t.is(await take(20), 10);
});

test.serial('concurrent requests of a key share its lease: exactly the limit is admitted', async (t) => {
  const { deps } = aProcess();
  const id = randomUUID();
  env.clock.set(windowStart() + 10);
  const decisions = await Promise.all(Array.from({ length: 300 }, () => takeLeasedToken(deps, 'test', id, 100)));
  t.is(decisions.filter((d) => d.allowed).length, 100);
  t.deepEqual(
    decisions
      .filter((d) => d.allowed)
      .map((d) => d.remaining)
      .sort((a, b) => b - a),
    Array.from({ length: 100 }, (_, i) => 99 - i),
  );
});

test.serial(
  'a lease takes at most an eighth of what the window has left: the tokens one process holds unspent keep little from another',
  async (t) => {
    const [a, b] = [aProcess(), aProcess()];
    const id = randomUUID();
    env.clock.set(windowStart() + 10);
    for (let i = 0; i < 10; i++) t.true((await takeLeasedToken(a.deps, 'test', id, 40)).allowed);
    // Leases of 1, 2 and 4 tokens, then 4 of the 8 asked for: an eighth of the 33 left.
    t.is(Number(await env.deps.redis.get(rateKey('test', id, Math.floor(env.clock.now() / minute)))), 11);
    let admitted = 0;
    while ((await takeLeasedToken(b.deps, 'test', id, 40)).allowed) admitted += 1;
    t.is(admitted, 29, 'all but the one token a holds');
  },
);

test.serial(
  'tokens left unspent in a window are given back with the next lease, so the next window weighs only the requests made',
  async (t) => {
    const { deps } = aProcess();
    const id = randomUUID();
    const start = windowStart();
    env.clock.set(start + 10);
    for (let i = 0; i < 4; i++) t.true((await takeLeasedToken(deps, 'test', id, 1000)).allowed); // leases of 1, 2 and 4 tokens
    const slot = Math.floor(start / minute);
    t.is(Number(await env.deps.redis.get(rateKey('test', id, slot))), 7, 'three tokens reserved and not spent');
    env.clock.set(start + minute + 10);
    t.like(await takeLeasedToken(deps, 'test', id, 1000), { allowed: true });
    t.is(Number(await env.deps.redis.get(rateKey('test', id, slot))), 4, 'the previous window counts the 4 requests made');
  },
);

/** Whether the exact limiter admits a request at `now`, given the requests admitted before it. */
function exactlyAdmitted(admitted: number[], now: number, limit: number): boolean {
  const slot = Math.floor(now / minute);
  const previous = admitted.filter((at) => Math.floor(at / minute) === slot - 1).length;
  const current = admitted.filter((at) => Math.floor(at / minute) === slot).length;
  return (previous * (minute - (now - slot * minute))) / minute + current + 1 <= limit;
}

const schedule = (processes: number) =>
  fc.array(
    fc.record({
      process: fc.nat(processes - 1),
      // Mostly requests close together, so windows fill and leases grow; now and then a jump.
      advanceMs: fc.oneof(
        { weight: 4, arbitrary: fc.constant(0) },
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 300 }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 40_000 }) },
      ),
    }),
    { minLength: 1, maxLength: 200 },
  );

/** Runs the schedule; the first decision that `judge` refuses fails the property. */
async function follows(
  limit: number,
  requests: { process: number; advanceMs: number }[],
  judge: (allowed: boolean, exact: boolean) => boolean,
): Promise<boolean> {
  const processes = [aProcess(), aProcess(), aProcess()];
  const id = randomUUID();
  env.clock.set(windowStart());
  const admitted: number[] = [];
  for (const r of requests) {
    env.clock.advance(r.advanceMs);
    const now = env.clock.now();
    const { allowed } = await takeLeasedToken(processes[r.process]!.deps, 'test', id, limit);
    if (!judge(allowed, exactlyAdmitted(admitted, now, limit))) return false;
    if (allowed) admitted.push(now);
  }
  return true;
}

test.serial("property: in one process every decision is the exact limiter's", async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 100 }), schedule(1), (limit, requests) =>
      follows(limit, requests, (allowed, exact) => allowed === exact),
    ),
    { numRuns: 60 },
  );
  t.pass();
});

test.serial('property: requests spread over three processes are never admitted beyond what the exact limiter allows', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 100 }), schedule(3), (limit, requests) =>
      follows(limit, requests, (allowed, exact) => !allowed || exact),
    ),
    { numRuns: 60 },
  );
  t.pass();
});

test.serial('when Redis cannot answer, the request is let through and the next one asks again', async (t) => {
  let failing = true;
  const { deps } = aProcess((...args) => (failing ? Promise.reject(new Error('connection is closed')) : leaseCall(...args)));
  const id = randomUUID();
  env.clock.set(windowStart() + 10);
  const [a, b] = await Promise.all([takeLeasedToken(deps, 'test', id, 5), takeLeasedToken(deps, 'test', id, 5)]);
  t.like(a, { allowed: true, remaining: 5 });
  t.like(b, { allowed: true, remaining: 5 });
  failing = false;
  t.like(await takeLeasedToken(deps, 'test', id, 5), { allowed: true, remaining: 4 });
});
