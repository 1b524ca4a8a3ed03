import test from 'ava';
import type { ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { eventIdRetentionMs, keepEventClaims } from '../../src/ingest/event-claims.ts';
import type { ClaimsUpkeep } from '../../src/ingest/event-claims.ts';
import { claimDays } from '../../src/ingest/event-claims.repo.ts';
import { jobs } from '../../workers/main.ts';
import { runJob } from '../../src/job.ts';
import { t0, testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, ev, ingest, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';

// Serial: the tests move the clock, and the upkeep adds and drops partitions of the whole schema.
let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const at = (iso: string) => Date.parse(iso);

async function sent(t: ExecutionContext, a: Tenant, events: unknown[]) {
  const res = await ingest(env, a, events);
  t.is(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assertSchema(t, 'ingest-result.json', res.body);
  return res.body as { accepted: number; duplicates: number; rejected: unknown[] };
}

/** The partition holding each claim of a server, by event id. */
async function partitionsOf(serverId: string): Promise<Record<string, string>> {
  const { rows } = await env.deps.db.query<{ id: string; part: string }>(
    'SELECT event_id AS id, tableoid::regclass::text AS part FROM event_claims WHERE server_id = $1',
    [serverId],
  );
  return Object.fromEntries(rows.map((r) => [r.id, r.part]));
}

const days = async () => (await claimDays(env.deps.db)).map((d) => d.day);

async function upkeepJob(t: ExecutionContext): Promise<ClaimsUpkeep | undefined> {
  const lines: { level: number; msg: string; result?: unknown }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  await runJob(
    { ...env.deps, log },
    jobs.find((j) => j.name === 'keep-event-claims')!,
  );
  t.deepEqual(
    lines.filter((l) => l.level >= 50),
    [],
    'no job failure',
  );
  return lines.find((l) => l.msg === 'job done')?.result as ClaimsUpkeep | undefined;
}

test.serial(
  "the upkeep adds the partitions of yesterday to a week ahead; a claim lands in its day's, other days in the default",
  async (t) => {
    env.clock.set(t0);
    const a = await tenant(env.deps);
    t.deepEqual((await upkeepJob(t))?.added, [
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    t.is(await keepEventClaims(env.deps), undefined, 'a second run changes nothing');
    const today = ev.kill(t0 - 5000, 1, 2);
    const yesterday = ev.status(at('2026-11-21T23:59:59.999Z'));
    const lastYear = ev.status(at('2025-11-22T12:00:00Z'));
    t.like(await sent(t, a, [today, yesterday, lastYear]), { accepted: 3 });
    t.deepEqual(await partitionsOf(a.serverId), {
      [today.id as string]: 'event_claims_20261122',
      [yesterday.id as string]: 'event_claims_20261121',
      [lastYear.id as string]: 'event_claims_other',
    });
  },
);

test.serial('an event whose ts is far ahead is a duplicate when sent again, though it was given its arrival time each time', async (t) => {
  env.clock.set(t0);
  const a = await tenant(env.deps);
  const ahead = ev.status(t0 + hour);
  t.like(await sent(t, a, [ahead]), { accepted: 1 });
  env.clock.set(t0 + 10 * minute);
  t.like(await sent(t, a, [ahead]), { accepted: 0, duplicates: 1 });
  const { rows } = await env.deps.db.query('SELECT status_at FROM servers WHERE id = $1', [a.serverId]);
  t.is(Date.parse(rows[0].status_at), t0, 'stored at its first arrival');
});

test.serial('a retry is the same id with the same ts: the id sent again with another ts is another event', async (t) => {
  env.clock.set(t0);
  const a = await tenant(env.deps);
  const kill = ev.kill(t0 - 5000, 1, 2);
  t.like(await sent(t, a, [kill]), { accepted: 1 });
  t.like(await sent(t, a, [kill, { ...kill }]), { accepted: 0, duplicates: 2 });
  t.like(await sent(t, a, [{ ...kill, ts: t0 - 4000 }]), { accepted: 1, duplicates: 0 });
});

test.serial('the default partition forgets a claim 7 days after it was received, by the service clock', async (t) => {
  env.clock.set(t0);
  const a = await tenant(env.deps);
  const ages = [eventIdRetentionMs + 1, eventIdRetentionMs, 6 * day];
  const ids = ages.map(() => randomUUID());
  for (const [i, id] of ids.entries()) {
    await env.deps.db.query('INSERT INTO event_claims (sent_at, server_id, event_id, received_at) VALUES ($1, $2, $3, $4)', [
      '2020-01-01T00:00:00Z',
      a.serverId,
      id,
      new Date(t0 - ages[i]!).toISOString(),
    ]);
  }
  await keepEventClaims(env.deps);
  t.deepEqual(Object.keys(await partitionsOf(a.serverId)).sort(), ids.slice(1).sort());
});

test.serial('claims of a day already in the default partition move into the partition added for that day', async (t) => {
  env.clock.set(t0);
  const a = await tenant(env.deps);
  const farAhead = ev.status(at('2026-12-02T08:00:00Z'));
  t.like(await sent(t, a, [farAhead]), { accepted: 1 });
  t.deepEqual(await partitionsOf(a.serverId), { [farAhead.id as string]: 'event_claims_other' });
  env.clock.set(t0 + 4 * day);
  t.deepEqual((await keepEventClaims(env.deps))?.added, ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03']);
  t.deepEqual(await partitionsOf(a.serverId), { [farAhead.id as string]: 'event_claims_20261202' });
  t.like(await sent(t, a, [farAhead]), { accepted: 0, duplicates: 1 });
});

test.serial("a batch whose claim meets the adding of its day's partition is applied, its claim in the new partition", async (t) => {
  env.clock.set(t0);
  const a = await tenant(env.deps);
  const event = ev.status(at('2026-12-10T08:00:00Z'));
  const adding = await env.deps.db.connect();
  try {
    await adding.query('BEGIN');
    await adding.query("SELECT event_claims_add_day('2026-12-10')");
    const pid = (await adding.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const batch = sent(t, a, [event]);
    const waiting = async () =>
      (await env.deps.db.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])).rowCount! > 0;
    while (!(await waiting())) await new Promise((resolve) => setTimeout(resolve, 5));
    await adding.query('COMMIT');
    t.like(await batch, { accepted: 1 });
  } finally {
    adding.release();
  }
  t.deepEqual(await partitionsOf(a.serverId), { [event.id as string]: 'event_claims_20261210' });
});

test.serial("a day's partition is dropped once its day ended 7 days ago and its last claim was received 7 days ago", async (t) => {
  env.clock.set(t0);
  const a = await tenant(env.deps);
  await keepEventClaims(env.deps);
  const old = [ev.kill(t0 - 5000, 1, 2), ev.kill(t0 - 4000, 2, 1)];
  t.like(await sent(t, a, old), { accepted: 2 });
  // A claim of the day before, received late: it keeps its day's partition 7 days after it.
  const late = ev.status(at('2026-11-21T20:00:00Z'));
  env.clock.set(at('2026-11-24T06:00:00Z'));
  t.like(await sent(t, a, [late]), { accepted: 1 });

  env.clock.set(t0 + eventIdRetentionMs + minute);
  await keepEventClaims(env.deps);
  t.like(await sent(t, a, old), { accepted: 0, duplicates: 2 }, 'received 7 days and a minute ago, its day not yet 7 days past: kept');

  // The end of 2026-11-22 is 7 days ago a millisecond later.
  env.clock.set(at('2026-11-29T23:59:59.999Z'));
  await keepEventClaims(env.deps);
  t.true((await days()).includes('2026-11-22'));
  env.clock.set(at('2026-11-30T00:00:00Z'));
  t.deepEqual((await upkeepJob(t))?.dropped, ['2026-11-22']);
  t.deepEqual(await sent(t, a, old), { accepted: 2, duplicates: 0, rejected: [] }, 'forgotten with its day');
  t.deepEqual(await sent(t, a, old), { accepted: 0, duplicates: 2, rejected: [] }, 'and remembered again (in the default partition)');

  t.true((await days()).includes('2026-11-21'), 'the late claim keeps the day before');
  env.clock.set(at('2026-12-01T06:00:00Z'));
  await keepEventClaims(env.deps);
  t.true((await days()).includes('2026-11-21'), 'received 7 days ago to the millisecond: kept');
  env.clock.set(at('2026-12-01T06:00:00Z') + 1);
  t.deepEqual((await keepEventClaims(env.deps))?.dropped, ['2026-11-21']);
  t.like(await sent(t, a, [late]), { accepted: 1 });
});

test.serial("a claim made while its day's partition is being dropped keeps the day", async (t) => {
  const a = await tenant(env.deps);
  env.clock.set(at('2026-12-14T00:00:00Z'));
  // Every other expired day dropped first: the one dropped below is the only one left to drop.
  await keepEventClaims(env.deps);
  await env.deps.db.query("SELECT event_claims_add_day('2026-12-05')");
  const late = await env.deps.db.connect();
  try {
    await late.query('BEGIN');
    const id = randomUUID();
    await late.query('INSERT INTO event_claims (sent_at, server_id, event_id, received_at) VALUES ($1, $2, $3, $4)', [
      '2026-12-05T10:00:00Z',
      a.serverId,
      id,
      new Date(env.clock.now()).toISOString(),
    ]);
    const pid = (await late.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const upkeep = keepEventClaims(env.deps);
    const waiting = async () =>
      (await env.deps.db.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])).rowCount! > 0;
    while (!(await waiting())) await new Promise((resolve) => setTimeout(resolve, 5));
    await late.query('COMMIT');
    t.false((await upkeep)?.dropped.includes('2026-12-05') ?? false);
    t.deepEqual(await partitionsOf(a.serverId), { [id]: 'event_claims_20261205' });
  } finally {
    late.release();
  }
  env.clock.set(at('2026-12-21T00:00:00Z') + 1);
  t.true((await keepEventClaims(env.deps))?.dropped.includes('2026-12-05'), 'dropped 7 days after the late claim');
  t.deepEqual(await partitionsOf(a.serverId), {});
});
