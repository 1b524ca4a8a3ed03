// The agent end to end against the real service (PostgreSQL, Redis, HTTP on a real port): once,
// resume, a lost state file, appended lines, rotation, an outage, a refusal, SIGTERM, merges.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import process from 'node:process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFile, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { createApp } from '../../src/app.ts';
import { Agent } from '../../src/agent/agent.ts';
import { agentDefaults, defaultStateFile } from '../../src/agent/options.ts';
import type { AgentOptions } from '../../src/agent/options.ts';
import { AgentRefused } from '../../src/agent/sender.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { createBan } from '../../src/bans/bans.ts';
import { queuePlayer } from '../../src/queue/queue.ts';
import { userWithRole } from '../helpers/controller.ts';
import { call } from '../helpers/controller-http.ts';
import { testEnv, t0 } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import type { LeaderboardEntry } from '../../src/stats/ranking.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let env: TestEnv;
let server: Server;
let baseUrl: string;
/** While true the service answers every request 503 (an outage in front of it). */
let down = false;
let requestsWhileDown = 0;
/** The next this-many ingest requests answer 429 with Retry-After: 1. */
let limitedNext = 0;
const limitedAt: number[] = [];

test.before(async () => {
  // The tests poll the Data API while the agent works: a key limit no test reaches.
  env = await testEnv({ RATE_DATA_STANDARD: '1000000' });
  const app = createApp(env.deps).callback();
  server = createServer((req, res) => {
    if (limitedNext > 0 && req.url?.endsWith('/events')) {
      limitedNext -= 1;
      limitedAt.push(Date.now());
      return void res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end('{"error":"RATE_LIMITED","message":"slow down"}');
    }
    if (!down) return void app(req, res);
    requestsWhileDown += 1;
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"error":"SERVICE_UNAVAILABLE","message":"down"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after.always(async () => {
  server?.close();
  await env?.close();
});

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

function options(a: Pick<Tenant, 'serverId' | 'token'>, logs: string, over: Partial<AgentOptions> = {}): AgentOptions {
  return {
    ...agentDefaults,
    url: baseUrl,
    serverId: a.serverId,
    token: a.token,
    logs,
    state: join(logs, 'state.json'),
    utcOffsetMinutes: 0,
    once: true,
    batchIntervalMs: 30,
    pollMs: 20,
    retryBaseMs: 10,
    retryMaxMs: 50,
    stopGraceMs: 2000,
    log: silent,
    ...over,
  };
}

const runOnce = (o: AgentOptions) => new Agent(o).run(new AbortController().signal);

/** A player with a DayZ ID as the game logs it (its Steam64 is known to the test only). */
const steam = (n: number) => String(76561198200000000n + BigInt(n));
const dz = (n: number) => dayzIdOf(steam(n));
const hms = (s: number) => [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((x) => String(x).padStart(2, '0')).join(':');

const header = (date: string, time: string) =>
  `\n\n******************************************************************************\nAdminLog started on ${date} at ${time}\n`;
/** Kill lines: player k kills player v, every 30 s from `startS` (seconds of the day; past midnight the day rolls over). */
function killLines(startS: number, count: number, killer: number, victim: number): string {
  let text = '';
  for (let i = 0; i < count; i++) {
    const s = (startS + i * 30) % 86_400;
    text += `${hms(s)} | Player "P${victim}" (DEAD) (id=${dz(victim)} pos=<100, 200, 3>) killed by Player "P${killer}" (id=${dz(killer)} pos=<110, 200, 3>) with M4-A1 from 10.5 meters \n`;
  }
  return text;
}

async function logsDir(t: ExecutionContext, files: Record<string, string>): Promise<string> {
  const dir = await tempDir(t, 'agent-e2e-');
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

async function board(t: ExecutionContext, a: Tenant): Promise<Record<string, LeaderboardEntry>> {
  const res = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?limit=100`);
  t.is(res.status, 200, JSON.stringify(res.body));
  assertSchema(t, 'leaderboard-page.json', res.body);
  return Object.fromEntries((res.body.players as LeaderboardEntry[]).map((p) => [p.platformId, p]));
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

const day = new Date(t0).toISOString().slice(0, 10);

test('--once reads the log into the service; twice counts nothing twice; a new state file re-reads everything and counts nothing twice', async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, {
    'server.ADM': header(day, '08:00:00') + killLines(8 * 3600 + 5, 30, 1, 2) + killLines(9 * 3600, 7, 2, 1),
  });
  const first = await runOnce(options(a, logs));
  t.like(first, { accepted: 38, duplicates: 0, rejected: 0, unparsed: 0 });
  const after = await board(t, a);
  t.like(after[dz(1)], { kills: 30, deaths: 7 });
  t.like(after[dz(2)], { kills: 7, deaths: 30 });
  const state = JSON.parse(await readFile(join(logs, 'state.json'), 'utf8'));
  t.deepEqual(Object.keys(state.files), ['server.ADM']);

  const second = await runOnce(options(a, logs));
  t.like(second, { sent: 0, accepted: 0 });
  t.deepEqual(await board(t, a), after);

  const fresh = await runOnce(options(a, logs, { state: join(logs, 'new-state.json') }));
  t.like(fresh, { sent: 38, accepted: 0, duplicates: 38 });
  t.deepEqual(await board(t, a), after);
  const feed = await dataGet(env, a, `/servers/${a.serverId}/kills?limit=100`);
  t.is(feed.body.kills.length, 37);
  t.like(feed.body.kills[0], { killerPlatformId: dz(2), victimPlatformId: dz(1), weapon: 'M4-A1', distance: 10.5 });
});

test('following: appended lines are picked up, a partial line waits for its end, a newer file is moved to (rotation)', async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, { 'DayZServer_x64_1.ADM': header(day, '06:00:00') + killLines(6 * 3600 + 10, 2, 3, 4) });
  const stop = new AbortController();
  const agent = new Agent(options(a, logs, { once: false }));
  const running = agent.run(stop.signal);
  t.teardown(() => stop.abort());
  await until('the first kills', async () => (await board(t, a))[dz(3)]?.kills === 2);
  await appendFile(join(logs, 'DayZServer_x64_1.ADM'), killLines(6 * 3600 + 100, 3, 3, 4));
  const partial = killLines(6 * 3600 + 200, 1, 3, 4);
  await appendFile(join(logs, 'DayZServer_x64_1.ADM'), partial.slice(0, 40));
  await until('the appended kills', async () => (await board(t, a))[dz(3)]?.kills === 5);
  await delay(100);
  t.is((await board(t, a))[dz(3)]?.kills, 5, 'the partial line is not read yet');
  await appendFile(join(logs, 'DayZServer_x64_1.ADM'), partial.slice(40));
  await until('the completed line', async () => (await board(t, a))[dz(3)]?.kills === 6);
  // Rotation: the server restarts into a new file (its name sorts first: the header date decides).
  await appendFile(join(logs, 'DayZServer_x64_1.ADM'), killLines(6 * 3600 + 300, 1, 3, 4));
  await writeFile(join(logs, 'A_newer.ADM'), header(day, '07:00:00') + killLines(7 * 3600 + 10, 4, 4, 3));
  await until('the new file', async () => (await board(t, a))[dz(4)]?.kills === 4);
  await appendFile(join(logs, 'A_newer.ADM'), killLines(7 * 3600 + 300, 1, 4, 3));
  await until('the new file growing', async () => (await board(t, a))[dz(4)]?.kills === 5);
  stop.abort();
  const report = await running;
  t.like(report, { unparsed: 0, rejected: 0 });
  t.like((await board(t, a))[dz(3)], { kills: 7, deaths: 5 });
  const state = JSON.parse(await readFile(join(logs, 'state.json'), 'utf8'));
  t.is(state.files['A_newer.ADM'], (await readFile(join(logs, 'A_newer.ADM'))).length);
  t.is(state.files['DayZServer_x64_1.ADM'], (await readFile(join(logs, 'DayZServer_x64_1.ADM'))).length);
});

test.serial('the service down for a while, then up: the agent stops reading ahead, then delivers everything once', async (t) => {
  const a = await tenant(env.deps);
  const kills = 6000;
  const logs = await logsDir(t, { 'big.ADM': header(day, '00:00:00') + killLines(10, kills, 5, 6) });
  down = true;
  requestsWhileDown = 0;
  const agent = new Agent(options(a, logs, { batchMax: 200 }));
  const running = agent.run(new AbortController().signal);
  try {
    await until('retries while down', () => requestsWhileDown >= 5);
    await delay(200);
    const report = agent.report();
    t.true(report.lines < 1000, `read ${report.lines} lines ahead of a service that is down`);
    t.true(report.retries >= 5);
  } finally {
    down = false;
  }
  const done = await running;
  t.like(done, { accepted: kills + 1, duplicates: 0, rejected: 0, lines: kills + 4 });
  t.like((await board(t, a))[dz(5)], { kills, deaths: 0 });
});

test('a refused batch stops --once with the reason; nothing is marked as read', async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, { 'server.ADM': header(day, '08:00:00') + killLines(8 * 3600 + 5, 2, 7, 8) });
  const error = await t.throwsAsync(runOnce(options(a, logs, { token: 'ing_wrong' })), { instanceOf: AgentRefused });
  t.regex(error!.message, /401/);
  await t.throwsAsync(readFile(join(logs, 'state.json')));
  t.like(await runOnce(options(a, logs)), { accepted: 3 });
});

test('SIGTERM flushes what was read before the batch interval is up, and saves the state', async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, { 'server.ADM': header(day, '08:00:00') + killLines(8 * 3600 + 5, 3, 9, 10) });
  const stop = new AbortController();
  const agent = new Agent(options(a, logs, { once: false, batchIntervalMs: 60_000 }));
  const running = agent.run(stop.signal);
  t.teardown(() => stop.abort());
  await until('the lines read', () => agent.report().lines >= 5);
  t.is((await board(t, a))[dz(9)], undefined, 'nothing sent before the interval');
  stop.abort();
  t.like(await running, { accepted: 4 });
  t.is((await board(t, a))[dz(9)]?.kills, 3);
  const state = JSON.parse(await readFile(join(logs, 'state.json'), 'utf8'));
  t.is(state.files['server.ADM'], (await readFile(join(logs, 'server.ADM'))).length);
});

test("an earlier version's state beside the logs is read once, then kept in the state's own place and removed from the logs", async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, { 'server.ADM': header(day, '08:00:00') + killLines(8 * 3600 + 5, 4, 21, 22) });
  const legacyState = join(logs, `.gameservice-agent-${a.serverId}.json`);
  const state = join(await tempDir(t, 'agent-state-'), 'gameservice-agent', 'state.json');
  t.like(await runOnce(options(a, logs, { state: legacyState })), { accepted: 5 });
  // The upgraded agent: its state file elsewhere (a folder not made yet), the old one read from beside the logs.
  t.like(await runOnce(options(a, logs, { state, legacyState })), { sent: 0, accepted: 0 });
  await appendFile(join(logs, 'server.ADM'), killLines(9 * 3600, 1, 21, 22));
  t.like(await runOnce(options(a, logs, { state, legacyState })), { sent: 1, accepted: 1 });
  t.deepEqual(await readdir(logs), ['server.ADM'], 'nothing is left beside the logs');
  t.deepEqual(Object.keys(JSON.parse(await readFile(state, 'utf8')).files), ['server.ADM']);
  t.like((await board(t, a))[dz(21)], { kills: 5 });
});

test('a PlayerList block makes the players online and the server online; a DayZ-ID player merges into its Steam64 when it is learnt', async (t) => {
  const a = await tenant(env.deps);
  const now = new Date(env.clock.now());
  const at = (s: number) => hms(now.getUTCHours() * 3600 + now.getUTCMinutes() * 60 + now.getUTCSeconds() - s);
  const logs = await logsDir(t, {
    'server.ADM': `${header(day, '00:00:00')}${at(40)} | Player "Mira" is connected (id=${dz(11)})
${at(35)} | Player "Mira" (DEAD) (id=${dz(11)} pos=<1, 2, 3>) killed by Player "Rexx" (id=${dz(12)} pos=<1, 2, 3>) with KA-M from 30 meters 
${at(30)} | ##### PlayerList log: 2 players
${at(30)} | Player "Mira" (id=${dz(11)} pos=<4512.3, 9811.7, 310.2>)
${at(30)} | Player "Rexx" (id=${dz(12)} pos=<10, 20, 30>)
${at(30)} | #####
`,
  });
  t.like(await runOnce(options(a, logs)), { accepted: 6, unparsed: 0 });
  const online = await dataGet(env, a, `/servers/${a.serverId}/players`);
  assertSchema(t, 'online-players.json', online.body);
  t.deepEqual(online.body.players.map((p: { platformId: string }) => p.platformId).sort(), [dz(11), dz(12)].sort());
  const status = await dataGet(env, a, `/servers/${a.serverId}`);
  t.like(status.body, { online: true });
  // A moderator bans Rexx by his Steam64: that teaches the service the Steam64, and his DayZ-ID player merges into it.
  const moderator = await userWithRole(env, 'moderator', a.accountId);
  const ban = await call(env, moderator, 'post', '/api/bans', { platformId: steam(12), playerName: 'Rexx', reason: 'cheating' });
  t.is(ban.status, 201, JSON.stringify(ban.body));
  const players = await board(t, a);
  t.is(players[dz(12)], undefined);
  t.like(players[steam(12)], { kills: 1, name: 'Rexx' });
  const after = await dataGet(env, a, `/servers/${a.serverId}/players`);
  t.deepEqual(after.body.players.map((p: { platformId: string }) => p.platformId).sort(), [dz(11), steam(12)].sort());
  // A re-read of the whole log (a lost state file) lands the DayZ ID's lines under the Steam64, counting nothing twice.
  t.like(await runOnce(options(a, logs, { state: join(logs, 'other.json') })), { accepted: 0, duplicates: 6 });
  t.like((await board(t, a))[steam(12)], { kills: 1 });
});

test('npm run agent as a child process: flags and AGENT_* variables, exit 0 after --once, 1 with the reason when refused, 2 for bad options', async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, { 'server.ADM': header(day, '08:00:00') + killLines(8 * 3600 + 5, 2, 13, 14) });
  const stateHome = await tempDir(t, 'agent-state-');
  const run = (args: string[], extraEnv: Record<string, string>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/agent/main.ts', ...args], {
        cwd: new URL('../../', import.meta.url),
        env: { PATH: process.env.PATH, XDG_STATE_HOME: stateHome, ...extraEnv },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  const agentEnv = { AGENT_URL: baseUrl, AGENT_SERVER_ID: a.serverId, AGENT_LOGS: logs, AGENT_UTC_OFFSET: '+00:00' };
  t.like(await run(['--once', '--token', a.token], agentEnv), { code: 0 });
  t.like((await board(t, a))[dz(13)], { kills: 2 });
  const refused = await run(['--once', '--state', join(logs, 'other.json')], { ...agentEnv, AGENT_TOKEN: 'ing_wrong' });
  t.is(refused.code, 1);
  t.regex(refused.stderr, /refused the batch: HTTP 401/);
  const bad = await run(['--once', '--utc-offset', '2', '--server', 'nope'], { ...agentEnv, AGENT_TOKEN: a.token });
  t.is(bad.code, 2);
  t.regex(bad.stderr, /--server must be the server id/);
  t.regex(bad.stderr, /--utc-offset must be/);
});

test('a real SIGTERM to a following agent process: it sends what it read before its batch interval was up, saves its state and exits 0', async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, { 'server.ADM': header(day, '08:00:00') + killLines(8 * 3600 + 5, 3, 17, 18) });
  const stateHome = await tempDir(t, 'agent-state-');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/agent/main.ts', '--batch-interval-ms', '600000', '--poll-ms', '50'], {
    cwd: new URL('../../', import.meta.url),
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      PATH: process.env.PATH,
      AGENT_URL: baseUrl,
      AGENT_SERVER_ID: a.serverId,
      AGENT_TOKEN: a.token,
      AGENT_LOGS: logs,
      AGENT_UTC_OFFSET: '+00:00',
      XDG_STATE_HOME: stateHome,
    },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  t.teardown(() => child.kill('SIGKILL'));
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  // Once it says it started, it reads the three lines at its first poll (50 ms): give it ample time.
  await until('the agent to start', () => stdout.includes('agent started'), 20_000);
  await delay(1500);
  t.is((await board(t, a))[dz(17)], undefined, 'the ten-minute batch interval is not up: nothing was sent yet');
  child.kill('SIGTERM');
  t.is(await exited, 0);
  t.like((await board(t, a))[dz(17)], { kills: 3 });
  // In the user's state folder, named by the server and the logs folder; nothing is left beside the logs.
  const state = await readFile(defaultStateFile({ XDG_STATE_HOME: stateHome }, a.serverId, logs, 'linux'), 'utf8');
  t.true(state.includes('server.ADM'), 'the state file names the log it read');
  t.deepEqual(await readdir(logs), ['server.ADM']);
});

test.serial('a 429 is retried after its Retry-After, not sooner', async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, { 'server.ADM': header(day, '08:00:00') + killLines(8 * 3600 + 5, 2, 15, 16) });
  limitedNext = 1;
  limitedAt.length = 0;
  const started = Date.now();
  const report = await runOnce(options(a, logs, { retryBaseMs: 1, retryMaxMs: 5 }));
  t.like(report, { accepted: 3, retries: 1 });
  t.is(limitedAt.length, 1);
  t.true(Date.now() - limitedAt[0]! >= 1000, 'waited the second the service asked for, not the 1 ms backoff');
  t.true(Date.now() - started < 5000);
});

test('garbage in a log (an endless line, binary noise, lines before a header) is counted and skipped, never fatal', async (t) => {
  const a = await tenant(env.deps);
  const noise = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256).filter((b) => b !== 10)).toString('latin1');
  const logs = await logsDir(t, {
    'server.ADM': `12:00:00 | before any header\n${header(day, '08:00:00')}${killLines(8 * 3600 + 5, 1, 17, 18)}${'#'.repeat(200_000)}\n${noise}\n${killLines(8 * 3600 + 100, 1, 17, 18)}`,
  });
  const report = await runOnce(options(a, logs));
  t.like(report, { accepted: 3, rejected: 0 });
  t.true(report.unparsed >= 3, `unparsed ${report.unparsed}`);
  t.is((await board(t, a))[dz(17)]?.kills, 2);
});

test.serial(
  'SIGTERM while the service is down: the agent exits after its grace period, and what was not acknowledged is sent at the next start',
  async (t) => {
    const a = await tenant(env.deps);
    const logs = await logsDir(t, { 'server.ADM': header(day, '00:00:00') + killLines(10, 3000, 19, 20) });
    down = true;
    const stop = new AbortController();
    const agent = new Agent(options(a, logs, { once: false, batchMax: 100, stopGraceMs: 300 }));
    const running = agent.run(stop.signal);
    try {
      await until('the reader held back', () => agent.report().retries >= 3);
      const stoppedAt = Date.now();
      stop.abort();
      const report = await running;
      t.true(Date.now() - stoppedAt < 3000, 'exited within its grace period');
      t.is(report.accepted, 0);
    } finally {
      down = false;
    }
    await t.throwsAsync(readFile(join(logs, 'state.json')), undefined, 'nothing is marked as sent');
    t.like(await runOnce(options(a, logs)), { accepted: 3001, duplicates: 0 });
    t.is((await board(t, a))[dz(19)]?.kills, 3000);
  },
);

test.serial('--files: ban.txt and priority.txt are pulled at start and again every interval, beside the game', async (t) => {
  const a = await tenant(env.deps);
  const logs = await logsDir(t, { 'server.ADM': header(day, '08:00:00') });
  const profile = await tempDir(t, 'profile-');
  const actor = { type: 'user' as const, id: null, name: 'test' };
  await createBan(env.deps, a.accountId, { platformId: '76561198000000001' }, actor);
  await queuePlayer(env.deps, a.accountId, { platformId: '76561198000000002' }, actor);
  const stop = new AbortController();
  const running = new Agent(options(a, logs, { once: false, files: profile, filesIntervalMs: 50 })).run(stop.signal);
  t.teardown(() => stop.abort());
  try {
    // A Steam64 ban is two lines: the Steam64 and its DayZ ID (docs/game-files.md).
    await until(
      'the first pull',
      async () =>
        (await readFile(join(profile, 'ban.txt'), 'utf8').catch(() => '')) === `76561198000000001\r\n${dayzIdOf('76561198000000001')}\r\n`,
    );
    // The two files of a pull are written one after the other: the second may land a moment later.
    await until(
      'the first pull of the priority file',
      async () => (await readFile(join(profile, 'priority.txt'), 'utf8').catch(() => '')) === '76561198000000002;',
    );
    await createBan(env.deps, a.accountId, { platformId: '76561198000000003' }, actor);
    await until('the next pull', async () => (await readFile(join(profile, 'ban.txt'), 'utf8')).includes('76561198000000003'));
  } finally {
    stop.abort();
    await running;
  }
  t.pass();
});
