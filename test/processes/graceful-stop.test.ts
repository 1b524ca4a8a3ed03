// The pieces of a graceful stop, each on its own: closing the agents' waits ends every long poll
// at once (and any later one), stopping the worker waits for the job run in progress and starts
// no other, and a web process's stop lets a request in flight finish before it resolves.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import schedule from 'node-schedule';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { tenant } from '../helpers/seed.ts';
import { AgentWaits } from '../../src/commands/agent-waits.ts';
import { takeCommands } from '../../src/commands/commands.ts';
import { createDeps, connectDeps, closeDeps } from '../../src/deps.ts';
import { scheduleJobs } from '../../workers/main.ts';
import { startWeb } from '../../src/web.ts';
import { isDraining } from '../../src/health/draining.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(() => env.close());

test('closing the waits ends every long poll at once, and any poll after it waits for nothing', async (t) => {
  const waits = new AgentWaits();
  const server = randomUUID();
  const first = waits.register(server);
  const ended = first.until(60_000);
  t.is(waits.count(), 1);
  waits.close();
  await ended;
  t.true(waits.closed);
  t.is(waits.count(), 0);
  await waits.register(server).until(60_000);
  t.is(waits.count(), 0);
});

test("a poll of the agent's commands answers with none at once once the process is closing", async (t) => {
  const a = await tenant(env.deps);
  const deps = { ...env.deps, agentWaits: new AgentWaits() };
  const polled = takeCommands(deps, a.serverId, 60_000, new AbortController().signal);
  deps.agentWaits.close();
  t.deepEqual(await polled, []);
  t.deepEqual(await takeCommands(deps, a.serverId, 60_000, new AbortController().signal), []);
});

test('stopping the worker waits for the run in progress and starts no other', async (t) => {
  let finish!: () => void;
  let runs = 0;
  let finished = false;
  const name = `stop-${randomUUID().slice(0, 8)}`;
  let stop!: () => Promise<void>;
  const started = new Promise<void>((resolve) => {
    const job = {
      name,
      rule: '* * * * * *',
      lockMs: 5000,
      run: () => {
        runs += 1;
        resolve();
        return new Promise<void>((done) => (finish = done)).then(() => void (finished = true));
      },
    };
    stop = scheduleJobs(env.deps, [job]);
  });
  await started;
  let stopped = false;
  const stopping = stop().then(() => (stopped = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.false(stopped, 'the run in progress holds the stop');
  t.deepEqual(Object.keys(schedule.scheduledJobs), [], 'nothing more is scheduled');
  finish();
  await stopping;
  t.true(finished);
  t.is(runs, 1);
});

test("a web process's stop lets the request in flight finish, then closes", async (t) => {
  const config = { ...env.deps.config, host: '127.0.0.1', port: 0 };
  const deps = createDeps(config, { log: env.deps.log, clock: env.deps.clock });
  await connectDeps(deps);
  t.teardown(() => closeDeps(deps));
  const a = await tenant(deps);
  const web = await startWeb(deps);
  const { port } = web.server.address() as { port: number };
  // A long poll is in flight when the stop begins: it answers (204, nothing came) and the stop resolves.
  const poll = fetch(`http://127.0.0.1:${port}/api/servers/${a.serverId}/commands/next?wait=30`, {
    headers: { authorization: `Bearer ${a.token}` },
  });
  for (let i = 0; deps.agentWaits.count() === 0 && i < 200; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.is(deps.agentWaits.count(), 1);
  const started = Date.now();
  await web.stop();
  t.true(isDraining());
  t.is((await poll).status, 204);
  t.true(Date.now() - started < 2000);
  await t.throwsAsync(fetch(`http://127.0.0.1:${port}/api/health`), { message: /fetch failed/ }, 'no longer accepting');
});
