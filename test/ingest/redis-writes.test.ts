// What a batch costs in writes to Redis: on machines where waking another process is dear, each
// write counts. A batch makes two: the ingest token's rate limit before it, and after its commit
// its derived state together with the drop of its players' trust scores older than a minute.
import test from 'ava';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ev, ingest, tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

/** Counts the writes on the service's Redis socket while `work` runs. */
async function redisWritesDuring(work: () => Promise<void>): Promise<number> {
  const socket = (env.deps.redis as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
  const write = socket.write;
  let writes = 0;
  socket.write = (...args: unknown[]) => {
    writes += 1;
    return write.apply(socket, args);
  };
  try {
    await work();
  } finally {
    socket.write = write;
  }
  return writes;
}

test('a batch leaves its derived state and its trust-score drop in one write to Redis', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const batch = (k: number) => [
    ev.presence('player.heartbeat', now - 1000 + k, 1 + (k % 3)),
    ev.presence('player.heartbeat', now - 1000 + k, 4 + (k % 3)),
    ev.kill(now - 900 + k, 1 + (k % 3), 4 + (k % 3)),
  ];
  // The first batches load the scripts into Redis and find the players new.
  for (let k = 0; k < 5; k++) t.is((await ingest(env, a, batch(k))).status, 200);
  const batches = 10;
  const writes = await redisWritesDuring(async () => {
    for (let k = 5; k < 5 + batches; k++) t.is((await ingest(env, a, batch(k))).status, 200);
  });
  t.is(writes, 2 * batches, 'the rate limit, then the derived state with the drop');
});
