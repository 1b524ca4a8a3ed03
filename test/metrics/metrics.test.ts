// GET /metrics: absent without METRICS_TOKEN, 401 without the right bearer, Prometheus text with
// it; requests are labelled by route template (never an id), batches, events, lag, jobs, pending
// commands and the stores' clients are counted. Counters are the process's: checked by difference, one test at a time.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { testEnv, t0 } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ev, ingest, tenant } from '../helpers/seed.ts';
import { insertCommands } from '../../src/commands/command.repo.ts';
import { runJob } from '../../src/job.ts';
import { publishWorkerFigures } from '../../src/metrics/worker-figures.ts';

const token = `scrape-${randomUUID()}`;
let env: TestEnv;
let bare: TestEnv;
test.before(async () => {
  [env, bare] = await Promise.all([testEnv({ METRICS_TOKEN: token }), testEnv()]);
});
test.after.always(() => Promise.all([env.close(), bare.close()]));

const scrape = async () => {
  const res = await env.request.get('/metrics').set('Authorization', `Bearer ${token}`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return res.text;
};

/** A sample's value in Prometheus text (0 when the series is not there yet). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test.serial('without METRICS_TOKEN the route does not exist', async (t) => {
  const res = await bare.request.get('/metrics').set('Authorization', 'Bearer anything-at-all-here');
  t.is(res.status, 404);
  t.like(res.body, { error: 'NOT_FOUND', statusCode: 404 });
});

test.serial('a missing or wrong bearer is 401 with the Error body, and no figure', async (t) => {
  for (const authorization of [undefined, `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, token, `bearer  ${token}`]) {
    const req = env.request.get('/metrics');
    const res = await (authorization === undefined ? req : req.set('Authorization', authorization));
    t.is(res.status, 401, String(authorization));
    t.like(res.body, { error: 'UNAUTHORIZED', statusCode: 401 });
    t.is(res.headers['www-authenticate'], 'Bearer');
    t.notRegex(res.text, /http_request_duration_seconds/);
  }
});

test.serial('the right bearer gets Prometheus text naming every figure', async (t) => {
  const res = await env.request.get('/metrics').set('Authorization', `Bearer ${token}`);
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  t.is(res.headers['cache-control'], 'no-store');
  for (const name of [
    'http_request_duration_seconds',
    'ingest_batches_total',
    'ingest_events_total',
    'ingest_lag_seconds',
    'worker_job_duration_seconds',
    'worker_jobs_running',
    'agent_long_polls',
    'agent_commands_pending',
    'webhook_deliveries_total',
    'pg_pool_acquire_seconds',
    'pg_pool_waiting',
    'redis_command_duration_seconds',
  ]) {
    t.regex(res.text, new RegExp(`^# HELP ${name} \\S`, 'm'), name);
    t.regex(res.text, new RegExp(`^# TYPE ${name} (counter|gauge|histogram)$`, 'm'), name);
  }
});

test.serial('requests are counted by route template and status, never by raw path', async (t) => {
  const a = await tenant(env.deps);
  const series = 'http_request_duration_seconds_count{route="/api/servers/:serverId/events",method="POST",status="200"}';
  const before = sample(await scrape(), series);
  t.is((await ingest(env, a, [ev.status(t0)])).status, 200);
  t.is((await ingest(env, a, [ev.status(t0)])).status, 200);
  const text = await scrape();
  t.is(sample(text, series) - before, 2);
  t.false(text.includes(a.serverId), 'no id in a label');
  await env.request.get(`/api/no-such-route/${a.serverId}`);
  await env.request.get(`/players/${a.serverId}`);
  const after = await scrape();
  t.true(sample(after, 'http_request_duration_seconds_count{route="(no route)",method="GET",status="404"}') >= 1);
  t.true(sample(after, 'http_request_duration_seconds_count{route="(page)",method="GET",status="200"}') >= 1);
  t.false(after.includes(a.serverId));
});

test.serial('a stored batch counts its events by result and its lag from its oldest event', async (t) => {
  const a = await tenant(env.deps);
  const before = await scrape();
  // The clock says t0 when the batch is stored: its oldest event is 90 s old.
  const events = [ev.status(t0 - 90_000), ev.status(t0 - 30_000)];
  t.is((await ingest(env, a, [...events, { id: 'not-an-event' }])).status, 200);
  t.is((await ingest(env, a, events)).status, 200);
  const after = await scrape();
  const delta = (series: string) => sample(after, series) - sample(before, series);
  t.is(delta('ingest_batches_total'), 2);
  t.is(delta('ingest_events_total{result="accepted"}'), 2);
  t.is(delta('ingest_events_total{result="duplicate"}'), 2);
  t.is(delta('ingest_events_total{result="rejected"}'), 1);
  t.is(delta('ingest_lag_seconds_count'), 2);
  t.is(delta('ingest_lag_seconds_sum'), 180);
  t.is(delta('ingest_lag_seconds_bucket{le="60"}'), 0);
  t.is(delta('ingest_lag_seconds_bucket{le="300"}'), 2);
});

test.serial("commands not yet taken by their agents are read when scraped, from this deployment's database", async (t) => {
  const a = await tenant(env.deps);
  const before = sample(await scrape(), 'agent_commands_pending');
  const kick = {
    serverId: a.serverId,
    accountId: a.accountId,
    kind: 'kick' as const,
    requestedBy: { type: 'system' as const, id: null, name: null },
  };
  await insertCommands(
    env.deps.db,
    [
      { ...kick, params: { platformId: '76561198000000001', reason: 'test' } },
      { ...kick, params: { platformId: '76561198000000002', reason: 'test' } },
    ],
    new Date(env.clock.now()).toISOString(),
  );
  t.is(sample(await scrape(), 'agent_commands_pending') - before, 2);
});

test.serial("job runs are timed by job and outcome, and the stores' clients by their waits and commands", async (t) => {
  const before = await scrape();
  const name = `job-${randomUUID().slice(0, 8)}`;
  await runJob(env.deps, { name, rule: '* * * * * *', lockMs: 1000, run: () => Promise.resolve('ok') });
  await runJob(env.deps, { name, rule: '* * * * * *', lockMs: 1000, lock: false, run: () => Promise.reject(new Error('boom')) });
  await env.deps.db.query('SELECT 1');
  await env.deps.redis.ping();
  const after = await scrape();
  t.is(sample(after, `worker_job_duration_seconds_count{job="${name}",outcome="done"}`), 1);
  t.is(sample(after, `worker_job_duration_seconds_count{job="${name}",outcome="failed"}`), 1);
  t.is(sample(after, 'worker_jobs_running'), 0);
  t.true(sample(after, 'pg_pool_acquire_seconds_count') > sample(before, 'pg_pool_acquire_seconds_count'));
  t.true(sample(after, 'redis_command_duration_seconds_count') > sample(before, 'redis_command_duration_seconds_count'));
});

test.serial("a worker process's figures, left in Redis, are added to the web's; a stopped or silent worker's are dropped", async (t) => {
  const name = `job-${randomUUID().slice(0, 8)}`;
  await runJob(env.deps, { name, rule: '* * * * * *', lockMs: 1000, lock: false, run: () => Promise.resolve() });
  const series = `worker_job_duration_seconds_count{job="${name}",outcome="done"}`;
  t.is(sample(await scrape(), series), 1);
  // This process plays the worker too: its figures are then counted twice, its own and those it left.
  const stop = publishWorkerFigures(env.deps);
  for (let i = 0; i < 100 && !(await env.deps.redis.hlen('metrics:workers')); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.is(sample(await scrape(), series), 2);
  await stop();
  t.is(await env.deps.redis.hlen('metrics:workers'), 0, 'a stopped worker removes its figures');
  t.is(sample(await scrape(), series), 1);
  // A worker that died leaves its figures behind: 30 s later they are no longer served, and removed.
  const died = publishWorkerFigures(env.deps);
  for (let i = 0; i < 100 && !(await env.deps.redis.hlen('metrics:workers')); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  env.clock.advance(29_000);
  t.is(sample(await scrape(), series), 2);
  env.clock.advance(2_000);
  t.is(sample(await scrape(), series), 1);
  t.is(await env.deps.redis.hlen('metrics:workers'), 0);
  await died();
});
