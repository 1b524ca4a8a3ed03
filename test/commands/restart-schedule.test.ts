// Scheduled restarts: the next shutdown time in the server's zone (daylight saving included), the
// routes, and the worker's job: each time queued once from its warning time on, never late.
import test from 'ava';
import fc from 'fast-check';
import { nextShutdownAfter, scheduleStep } from '../../src/commands/restart-schedule.ts';
import { queueScheduledRestarts } from '../../src/commands/restart-schedules.ts';
import { revokeServer } from '../../src/servers/server.ts';
import { api, controllerEnv } from '../helpers/controller-http.ts';
import { userWithRole } from '../helpers/controller.ts';
import { assertError } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { community, poll } from './helpers.ts';

const at = (iso: string) => Date.parse(iso);
const next = (timeZone: string, times: string[], afterIso: string) =>
  new Date(nextShutdownAfter({ timeZone, times }, at(afterIso))).toISOString();

test("the next shutdown is the earliest of the times still ahead, in the server's zone", (t) => {
  t.is(next('UTC', ['06:00', '18:00'], '2026-11-27T05:59:59.999Z'), '2026-11-27T06:00:00.000Z');
  t.is(next('UTC', ['06:00', '18:00'], '2026-11-27T06:00:00.000Z'), '2026-11-27T18:00:00.000Z', 'strictly after');
  t.is(next('UTC', ['06:00', '18:00'], '2026-11-27T18:00:00.001Z'), '2026-11-28T06:00:00.000Z');
  t.is(next('Europe/Berlin', ['04:00'], '2026-11-27T02:00:00.000Z'), '2026-11-27T03:00:00.000Z', 'CET is UTC+1');
  t.is(next('Europe/Berlin', ['04:00'], '2026-07-01T01:00:00.000Z'), '2026-07-01T02:00:00.000Z', 'CEST is UTC+2');
  t.is(next('America/New_York', ['00:00'], '2026-11-27T04:59:00.000Z'), '2026-11-27T05:00:00.000Z');
});

test('daylight saving: a time in the spring-forward gap moves forward with the clock; the fall-back hour restarts once', (t) => {
  // 2026-03-29 in Berlin: 02:00 CET jumps to 03:00 CEST.
  t.is(next('Europe/Berlin', ['02:30'], '2026-03-28T23:00:00.000Z'), '2026-03-29T01:30:00.000Z');
  // 2026-10-25 in Berlin: 03:00 CEST falls back to 02:00 CET; 02:30 comes twice, restarted at the first.
  const first = next('Europe/Berlin', ['02:30'], '2026-10-24T22:00:00.000Z');
  t.is(first, '2026-10-25T00:30:00.000Z');
  t.is(next('Europe/Berlin', ['02:30'], first), '2026-10-26T01:30:00.000Z');
});

test("property: the next shutdown is after the instant, within a day and a bit, and shows one of the times on the zone's clock", (t) => {
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'America/St_Johns'];
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  fc.assert(
    fc.property(
      fc.constantFrom(...zones),
      fc.uniqueArray(time, { minLength: 1, maxLength: 6 }),
      fc.integer({ min: at('2025-01-01T00:00:00Z'), max: at('2028-01-01T00:00:00Z') }),
      (timeZone, times, afterMs) => {
        const ms = nextShutdownAfter({ timeZone, times }, afterMs);
        t.true(ms > afterMs && ms - afterMs <= 26 * 3600_000);
        const clock = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
        const gap = !times.includes(clock);
        // Only a time skipped by a spring-forward gap shows another clock time (an hour later).
        if (gap) t.true(times.some((x) => nextShutdownAfter({ timeZone, times: [x] }, afterMs) === ms));
      },
    ),
    { numRuns: 300 },
  );
});

test('the step: wait before the warning, queue from it on with the delay left, skip once the time has passed', (t) => {
  const nextMs = at('2026-11-27T06:00:00Z');
  t.is(scheduleStep(nextMs, 300, nextMs - 300_001), 'wait');
  t.deepEqual(scheduleStep(nextMs, 300, nextMs - 300_000), { queue: { delaySeconds: 300 } });
  t.deepEqual(scheduleStep(nextMs, 300, nextMs - 89_000), { queue: { delaySeconds: 89 } });
  t.is(scheduleStep(nextMs, 300, nextMs), 'skip');
});

let env: TestEnv;
test.before(async () => {
  env = await controllerEnv();
});
test.after.always(async () => {
  await env?.close();
});

test.serial('set, read and remove a schedule; the worker queues each restart once from its warning time, as the schedule', async (t) => {
  const c = await community(env);
  assertError(t, await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/restart-schedule`), 404, 'NOT_FOUND');
  // t0 is 2026-11-22T12:00:00Z: 13:00 in Berlin.
  const set = await api(t, env, c.owner, 'put', `/api/servers/${c.serverId}/restart-schedule`, {
    enabled: true,
    timeZone: 'Europe/Berlin',
    times: ['18:00', '14:00'],
    message: 'Daily restart',
  });
  t.is(set.status, 200);
  t.deepEqual(set.body, {
    enabled: true,
    timeZone: 'Europe/Berlin',
    times: ['14:00', '18:00'],
    warningSeconds: 300,
    message: 'Daily restart',
    nextAt: '2026-11-22T13:00:00.000Z',
    updatedAt: new Date(env.clock.now()).toISOString(),
  });
  t.deepEqual((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/restart-schedule`)).body, set.body);

  env.clock.set(at('2026-11-22T12:54:59Z'));
  t.is(await queueScheduledRestarts(env.deps), undefined, 'before the warning time');
  env.clock.set(at('2026-11-22T12:55:30Z'));
  t.deepEqual(await queueScheduledRestarts(env.deps), { queued: 1, skipped: 0 });
  t.is(await queueScheduledRestarts(env.deps), undefined, 'queued once');
  const handed = await poll(env, c);
  t.like(handed.body.commands[0], {
    kind: 'restart',
    params: { delaySeconds: 270, message: 'Daily restart' },
    requestedBy: { type: 'system', id: null, name: 'restart schedule' },
    dueInSeconds: 270,
  });
  t.is((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/restart-schedule`)).body.nextAt, '2026-11-22T17:00:00.000Z');

  // The worker was down past 18:00: that restart is skipped (never late), the next one is tomorrow's 14:00.
  env.clock.set(at('2026-11-22T17:00:30Z'));
  t.deepEqual(await queueScheduledRestarts(env.deps), { queued: 0, skipped: 1 });
  t.is((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/restart-schedule`)).body.nextAt, '2026-11-23T13:00:00.000Z');
  t.is((await poll(env, c)).status, 204);

  t.is((await api(t, env, c.owner, 'delete', `/api/servers/${c.serverId}/restart-schedule`)).status, 204);
  assertError(t, await api(t, env, c.owner, 'delete', `/api/servers/${c.serverId}/restart-schedule`), 404, 'NOT_FOUND');
  const { rows } = await env.deps.db.query(
    "SELECT action, actor_name FROM audit_log WHERE account_id = $1 AND action LIKE 'server.restart%' ORDER BY id",
    [c.accountId],
  );
  t.deepEqual(rows, [
    { action: 'server.restart-schedule.set', actor_name: c.owner.username },
    { action: 'server.restart', actor_name: 'restart schedule' },
    { action: 'server.restart-schedule.remove', actor_name: c.owner.username },
  ]);
});

test.serial('a disabled schedule, or one of a revoked server, queues nothing', async (t) => {
  const c = await community(env);
  const d = await community(env);
  env.clock.set(at('2026-11-22T12:00:00Z'));
  const off = await api(t, env, c.owner, 'put', `/api/servers/${c.serverId}/restart-schedule`, {
    enabled: false,
    timeZone: 'UTC',
    times: ['12:01'],
    warningSeconds: 60,
  });
  t.is(off.body.nextAt, null);
  await api(t, env, d.owner, 'put', `/api/servers/${d.serverId}/restart-schedule`, {
    enabled: true,
    timeZone: 'UTC',
    times: ['12:01'],
    warningSeconds: 60,
  });
  await revokeServer(env.deps, d.accountId, d.serverId);
  env.clock.set(at('2026-11-22T12:00:30Z'));
  t.is(await queueScheduledRestarts(env.deps), undefined);
});

test("bad schedules are 400s; reading needs servers.read, setting servers.control; another account's server is 404", async (t) => {
  const c = await community(env);
  const path = `/api/servers/${c.serverId}/restart-schedule`;
  for (const body of [
    { enabled: true, timeZone: 'Mars/Olympus', times: ['06:00'] },
    { enabled: true, timeZone: 'UTC', times: [] },
    { enabled: true, timeZone: 'UTC', times: ['24:00'] },
    { enabled: true, timeZone: 'UTC', times: ['6:00'] },
    { enabled: true, timeZone: 'UTC', times: ['06:00', '06:00'] },
    { enabled: true, timeZone: 'UTC' },
    { enabled: true, timeZone: 'UTC', times: ['06:00'], warningSeconds: 3601 },
    { enabled: true, timeZone: 'UTC', times: ['06:00'], message: 'a\nb' },
  ])
    assertError(t, await api(t, env, c.owner, 'put', path, body), 400, 'BAD_REQUEST', JSON.stringify(body));
  const viewer = await userWithRole(env, 'viewer', c.accountId);
  assertError(t, await api(t, env, viewer, 'put', path, { enabled: true, timeZone: 'UTC', times: ['06:00'] }), 403, 'FORBIDDEN');
  t.is((await api(t, env, c.owner, 'put', path, { enabled: true, timeZone: 'UTC', times: ['06:00'] })).status, 200);
  t.is((await api(t, env, viewer, 'get', path)).status, 200);
  const other = await community(env);
  assertError(t, await api(t, env, other.owner, 'get', path), 404, 'NOT_FOUND');
  assertError(t, await api(t, env, other.owner, 'put', path, { enabled: true, timeZone: 'UTC', times: ['06:00'] }), 404, 'NOT_FOUND');
});
