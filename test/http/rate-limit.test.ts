import test from 'ava';

// Serial: the tests move the one clock of this file's environment.
import fc from 'fast-check';
import { takeRateToken } from '../../src/http/rate-limit.ts';
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
const windowStart = (env: TestEnv) => Math.ceil(env.clock.now() / minute) * minute;

async function take(id: string, n: number, limit: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < n; i++) if ((await takeRateToken(env.deps, 'test', id, limit)).allowed) allowed += 1;
  return allowed;
}

test.serial('the limit passes, the next request in the same window is refused', async (t) => {
  env.clock.set(windowStart(env) + 1000);
  t.is(await take('a', 10, 10), 10);
  const refused = await takeRateToken(env.deps, 'test', 'a', 10);
  t.false(refused.allowed);
  t.is(refused.remaining, 0);
  t.is(refused.resetMs, minute - 1000);
});

test.serial('remaining counts down', async (t) => {
  env.clock.set(windowStart(env) + 5000);
  const first = await takeRateToken(env.deps, 'test', 'b', 5);
  const second = await takeRateToken(env.deps, 'test', 'b', 5);
  t.deepEqual([first.remaining, second.remaining], [4, 3]);
});

test.serial('the window slides: a burst at the end of one window still counts early in the next', async (t) => {
  const start = windowStart(env);
  env.clock.set(start + minute - 100);
  t.is(await take('c', 10, 10), 10);
  // 100 ms later the fixed window changed, but a sliding window still holds nearly all 10.
  env.clock.set(start + minute);
  t.is(await take('c', 10, 10), 0);
  // Half-way through the next window half of the old burst has slid out.
  env.clock.set(start + minute + minute / 2);
  t.is(await take('c', 10, 10), 5);
  // Two windows later everything has slid out.
  env.clock.set(start + 3 * minute);
  t.is(await take('c', 20, 10), 10);
});

test.serial('keys and scopes are counted apart', async (t) => {
  env.clock.set(windowStart(env) + 10);
  t.is(await take('d', 3, 3), 3);
  t.is(await take('e', 3, 3), 3);
  t.true((await takeRateToken(env.deps, 'other', 'd', 3)).allowed);
});

test.serial('property: a refused client that waits retryAfterMs is admitted, and one that waits a millisecond less is not', async (t) => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 20 }),
      fc.array(fc.integer({ min: 0, max: 2 * minute }), { minLength: 1, maxLength: 60 }),
      async (limit, offsets) => {
        const id = `p${run++}`;
        const start = windowStart(env);
        // Requests at sorted times from the start of a window, until one is refused.
        for (const at of [...offsets].sort((x, y) => x - y)) {
          env.clock.set(start + at);
          const decision = await takeRateToken(env.deps, 'prop', id, limit);
          if (decision.allowed) continue;
          if (decision.retryAfterMs > 1) {
            env.clock.set(start + at + decision.retryAfterMs - 1);
            if ((await takeRateToken(env.deps, 'prop', id, limit)).allowed) return false;
          }
          env.clock.set(start + at + decision.retryAfterMs);
          return (await takeRateToken(env.deps, 'prop', id, limit)).allowed;
        }
        return true;
      },
    ),
    { numRuns: 150 },
  );
  t.pass();
});
