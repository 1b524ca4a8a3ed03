// The real service with two web processes (WEB_CONCURRENCY=2) under a steady stream of agent
// batches: a web process killed outright is replaced, and a rolling restart (SIGHUP) and then a
// stop (SIGTERM) lose no batch that was answered
// 2xx, and every other batch got a clean answer or a refused/closed connection, which an agent
// retries. An agent's long poll answers as soon as the stop begins, and the stop takes under 10 s.
import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import process from 'node:process';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';

const run = promisify(execFile);
let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(() => env.close());

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const metricsToken = randomUUID();

/** The service started from its sources, as bin/service starts the build, in this test's schema and prefix. */
function startService(port: number) {
  const { config } = env.deps;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'web'], {
    cwd: new URL('../../', import.meta.url),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      WEB_CONCURRENCY: '2',
      DATABASE_URL: config.databaseUrl,
      DATABASE_SCHEMA: config.databaseSchema,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      JWT_SECRET: config.jwtSecret,
      LOG_LEVEL: 'info',
      METRICS_TOKEN: metricsToken,
      CONTROLLER_RATE_LIMIT: 'false',
      RATE_INGEST: '1000000',
      // The engines stage's Redis Cluster and read replica, when the tests run against them.
      ...(process.env.TEST_REDIS_CLUSTER_NODES ? { REDIS_CLUSTER_NODES: process.env.TEST_REDIS_CLUSTER_NODES } : {}),
      ...(process.env.TEST_DATABASE_READ_URL ? { DATABASE_READ_URL: process.env.TEST_DATABASE_READ_URL } : {}),
    },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => output };
}

/** Resolves once `check` holds (checked every 50 ms), or fails after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Tally {
  acked: string[];
  /** Batches answered with a status other than 2xx, by status. */
  refusedWith: Map<number, number>;
  /** Batches whose connection was refused or closed before an answer, by error code. */
  cutOff: Map<string, number>;
}

const errorCode = (err: unknown) => {
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code ?? (err as Error).message;
};

/** An agent sending batches of fresh events one after another until `stopped()`. */
async function agentLoop(base: string, a: Tenant, stopped: () => boolean, tally: Tally): Promise<void> {
  while (!stopped()) {
    const events = Array.from({ length: 5 }, () => ({ id: randomUUID(), type: 'server.status', ts: Date.now(), online: true }));
    try {
      const res = await fetch(`${base}/api/servers/${a.serverId}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      await res.arrayBuffer();
      if (res.ok) tally.acked.push(...events.map((e) => e.id));
      else tally.refusedWith.set(res.status, (tally.refusedWith.get(res.status) ?? 0) + 1);
    } catch (err) {
      const code = errorCode(err);
      tally.cutOff.set(code, (tally.cutOff.get(code) ?? 0) + 1);
      // Refused: the service is gone; the agent would wait before its retry.
      if (code === 'ECONNREFUSED') await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

test('a dead web process is replaced; a rolling restart and a stop of two web processes lose no acknowledged batch; a long poll ends with the stop', async (t) => {
  // Several service processes start from the sources (tsx): slow on a loaded machine.
  t.timeout(170_000);
  const a = await tenant(env.deps);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = startService(port);
  t.teardown(() => service.child.kill('SIGKILL'));
  await until('the web processes', () => service.output().includes('"web processes listening"'), 90_000);

  let gone = false;
  void service.exited.then(() => (gone = true));
  const tally: Tally = { acked: [], refusedWith: new Map(), cutOff: new Map() };
  const loops = Array.from({ length: 3 }, () => agentLoop(base, a, () => gone, tally));
  await until('batches stored', () => tally.acked.length >= 50, 20_000);

  // A web process that dies (killed outright) is replaced by the primary.
  // The primary's children that run the service: tsx gives it an esbuild child too, which is no web process.
  const webPids = async () =>
    (await run('pgrep', ['-P', String(service.child.pid), '-f', 'src/main.ts']).catch(() => ({ stdout: '' }))).stdout
      .split('\n')
      .filter(Boolean);
  const [victim] = await webPids();
  process.kill(Number(victim), 'SIGKILL');
  await until(
    'a web process to replace the dead one',
    async () => service.output().includes('"web process died; starting another"') && (await webPids()).length === 2,
    60_000,
  );
  t.false((await webPids()).includes(victim!));
  const ackedAfterDeath = tally.acked.length;
  await until('batches stored after the death', () => tally.acked.length >= ackedAfterDeath + 50, 20_000);

  // Rolling restart: each web process replaced in turn, the port served throughout.
  service.child.kill('SIGHUP');
  await until('the rolling restart', () => service.output().includes('"rolling restart done"'), 60_000);
  const ackedAfterRoll = tally.acked.length;
  t.deepEqual([...tally.refusedWith], [], 'no batch was refused during the rolling restart');
  await until('batches stored after the roll', () => tally.acked.length >= ackedAfterRoll + 50, 20_000);

  // A long poll waiting for a command (30 s) when the stop begins.
  const poll = fetch(`${base}/api/servers/${a.serverId}/commands/next?wait=30`, { headers: { authorization: `Bearer ${a.token}` } }).then(
    async (res) => ({ status: res.status, body: await res.text(), at: Date.now() }),
  );
  // The web processes' figures combined: the poll waits in one of them.
  await until(
    'the long poll to wait',
    async () =>
      /^agent_long_polls 1$/m.test(await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text()),
    10_000,
  );
  const stoppedAt = Date.now();
  service.child.kill('SIGTERM');
  const answered = await poll;
  t.is(answered.status, 204, 'no command came: the poll ends empty');
  t.is(answered.body, '');
  t.true(answered.at - stoppedAt < 3000, `the long poll answered ${answered.at - stoppedAt} ms after SIGTERM`);
  t.is(await service.exited, 0);
  t.true(Date.now() - stoppedAt < 10_000, `the service exited ${Date.now() - stoppedAt} ms after SIGTERM`);
  await Promise.all(loops);

  // Every batch answered 2xx is stored; the others were cut off at the connection, which the agent retries.
  const { rows } = await env.deps.db.query<{ id: string }>('SELECT event_id::text AS id FROM event_claims WHERE server_id = $1', [
    a.serverId,
  ]);
  const stored = new Set(rows.map((r) => r.id));
  t.deepEqual(
    tally.acked.filter((id) => !stored.has(id)),
    [],
  );
  t.true(tally.acked.length >= 100);
  t.deepEqual([...tally.refusedWith], [], 'no batch was answered with an error');
  for (const code of tally.cutOff.keys()) t.true(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].includes(code), code);
  t.log(`${tally.acked.length / 5} batches stored; cut off: ${JSON.stringify([...tally.cutOff])}`);
});
