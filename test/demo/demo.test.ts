// npm run demo: a re-run shows the same keys and tokens and counts nothing twice; the log-fed server
// is fed by its agent from the committed logs as they are (an agent pointed at them later counts
// nothing twice); while the demo runs both servers stay online with their players and play time
// grows; every line it prints (the mirror, the chat bot, the store webhook) works against it.
import { createHmac } from 'node:crypto';
import { statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { createApp } from '../../src/app.ts';
import { Agent } from '../../src/agent/agent.ts';
import type { AgentClock } from '../../src/agent/agent-clock.ts';
import { parseAgentOptions } from '../../src/agent/options.ts';
import { callChatAction } from '../../src/chat/client.ts';
import { demoFixture, demoLogTemplate, demoLogsDir, loadDemo } from '../../src/demo/load-demo.ts';
import type { DemoData } from '../../src/demo/load-demo.ts';
import { historyFile, sessionFile } from '../../src/demo/demo-log.ts';
import { startDemoLive } from '../../src/demo/live.ts';
import { demoInstructions } from '../../src/demo/instructions.ts';
import { demoSettings } from '../../src/demo/settings.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { mirrorToFile } from '../../src/trust/mirror-file.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ev, ingest } from '../helpers/seed.ts';
import { ingestBatch } from '../../src/ingest/ingest.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The live parts' time is the test's clock: a sleep ends when the test has moved the clock past it. */
const testClock = (env: TestEnv): AgentClock => ({
  now: () => env.clock.now(),
  sleep: async (ms, signal) => {
    const until = env.clock.now() + ms;
    while (env.clock.now() < until && !signal?.aborted) await delay(5);
  },
});

/** A private world whose chat roles file is in the test's own folder (not the project's data/). */
async function demoEnv(t: ExecutionContext, env: Record<string, string> = {}): Promise<TestEnv> {
  const world = await testEnv({ CHAT_ROLES_DIR: await tempDir(t, 'demo-chat-roles-'), ...env });
  t.teardown(world.close);
  return world;
}

/** The demo as npm run demo starts it, on the test's clock, its files in the test's folders. */
async function runDemo(t: ExecutionContext, env: TestEnv, files: { credentials: string; dir: string }) {
  const demo = await loadDemo(env.deps, files.credentials);
  const live = await startDemoLive(env.deps, demo, {
    dir: files.dir,
    clock: testClock(env),
    agent: { pollMs: 10, batchIntervalMs: 10, retryBaseMs: 10, retryMaxMs: 50, log: quiet },
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await live.stop();
  };
  t.teardown(stop);
  return { demo, live, stop };
}

const dataGet = (env: TestEnv, demo: DemoData, path: string) =>
  env.request.get(`/api/v1/data/servers${path}`).set('X-Service-Api-Key', demo.apiKey);
const board = async (env: TestEnv, demo: DemoData, serverId: string) =>
  Object.fromEntries(
    (
      (await dataGet(env, demo, `/${serverId}/leaderboard?limit=100`)).body.players as {
        name: string;
        kills: number;
        playMinutes: number;
      }[]
    ).map((p) => [p.name, p]),
  );

async function statusAt(env: TestEnv, serverId: string): Promise<number> {
  const { rows } = await env.deps.db.query<{ at: string | null }>('SELECT status_at AS at FROM servers WHERE id = $1', [serverId]);
  return rows[0]!.at === null ? 0 : Date.parse(rows[0]!.at);
}

test('a re-run of the demo reuses its keys and tokens; each printed token works; nothing is counted twice', async (t) => {
  const env = await demoEnv(t);
  const files = { credentials: join(await tempDir(t, 'demo-'), 'credentials.json'), dir: await tempDir(t, 'demo-live-') };
  const first = await runDemo(t, env, files);
  t.like(first.live.caughtUp, { unparsed: 0, rejected: 0, duplicates: 0 });
  const leaderboard = await board(env, first.demo, first.demo.servers[0]!.id);
  await first.stop();
  env.clock.advance(60_000); // a later run: its live log is a new file
  const second = await runDemo(t, env, files);
  t.deepEqual(second.demo, first.demo, 'the same account, keys, tokens and bot');
  t.is(second.live.caughtUp.sent, first.live.caughtUp.sent, 'the agent read the same logs again');
  t.true(second.live.caughtUp.duplicates > 500, 'the committed logs counted once');
  t.true(second.live.caughtUp.accepted > 0 && second.live.caughtUp.accepted < 20, 'only the live log (its start) is new');
  const keys = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [
    first.demo.accountId,
  ]);
  t.is(keys.rows[0]!.n, 1, 'no second key minted');
  const partners = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM partner_keys');
  t.is(partners.rows[0]!.n, 1, 'no second partner key');
  t.deepEqual(await board(env, second.demo, second.demo.servers[0]!.id), leaderboard, 'nothing counted twice');
  const settings = { env: {}, set: [] };
  const printed = demoInstructions(second.demo, second.live, 3000, settings);
  // The printed dashboard sign-in works, and is the same on a re-run.
  t.true(printed.includes(`Dashboard: http://127.0.0.1:3000/  (sign in as demo-admin / ${second.demo.admin.password}`));
  const login = await env.request
    .post('/api/auth/login')
    .send({ username: second.demo.admin.username, password: second.demo.admin.password });
  t.is(login.status, 200);
  t.true(second.demo.admin.operator, "on a fresh database the demo community is the operator's");
  // The banned player of the printed public page has the demo community's approved pool entry.
  t.true(printed.includes(`/p/${second.demo.poolPlayer}`));
  const entries = await env.request.get(`/api/v1/trust/${second.demo.poolPlayer}/entries`);
  t.deepEqual(
    entries.body.entries.map((e: { community: string; status: string }) => [e.community, e.status]),
    [['Demo Community', 'active']],
  );
  // A day of status samples for the chart, stored once however often the demo runs.
  const samples = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM server_metrics WHERE server_id = $1 AND at < $2', [
    second.demo.servers[1]!.id,
    new Date(env.clock.now() - 120_000),
  ]);
  t.true(samples.rows[0]!.n >= 143 && samples.rows[0]!.n <= 147, `${samples.rows[0]!.n} samples`);
  for (const server of second.demo.servers) {
    t.true(printed.includes(server.ingestToken), `the token of ${server.name} is printed`);
    t.is((await ingest(env, { serverId: server.id, token: server.ingestToken }, [ev.status(env.clock.now())])).status, 200);
  }
  await second.stop();
  // A fresh clone against the same database (no saved credentials, a day later): its history is the same events again.
  const kills = async () =>
    (
      await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM kills WHERE server_id = ANY($1::uuid[])', [
        second.demo.servers.map((s) => s.id),
      ])
    ).rows[0]!.n;
  const killsBefore = await kills();
  env.clock.advance(24 * 3600_000);
  const clone = await runDemo(t, env, { credentials: join(await tempDir(t, 'demo-'), 'credentials.json'), dir: files.dir });
  t.true(clone.live.caughtUp.duplicates > 500, 'the committed logs counted once');
  t.deepEqual(await board(env, clone.demo, clone.demo.servers[0]!.id), leaderboard, 'nothing counted twice');
  t.is(await kills(), killsBefore, 'no kill of either server stored twice');
});

test('the demo logs in fixtures/ are what the generator writes from the demo fixture', async (t) => {
  const { history, session } = demoLogTemplate();
  t.is(await readFile(join(demoLogsDir, historyFile), 'utf8'), history);
  t.is(await readFile(join(demoLogsDir, sessionFile), 'utf8'), session);
});

test("the log-fed server: leaderboard, killfeed and online players come from its logs, play time from its players' sessions", async (t) => {
  const env = await demoEnv(t);
  const { demo, live } = await runDemo(t, env, {
    credentials: join(await tempDir(t, 'demo-'), 'credentials.json'),
    dir: await tempDir(t, 'demo-live-'),
  });
  t.like(live.caughtUp, { unparsed: 0, rejected: 0 });
  t.true(live.caughtUp.sent > 500);
  const serverId = demo.servers[0]!.id;
  const ids = (await dataGet(env, demo, `/${serverId}/leaderboard?limit=100`)).body.players.map(
    (p: { platformId: string }) => p.platformId,
  );
  // Players whose Steam64 the service knows are shown by it; the log-only ones by their DayZ ID.
  t.true(ids.includes('76561198000000001'));
  t.true(ids.includes(dayzIdOf('76561198000000101')));
  t.false(ids.includes(dayzIdOf('76561198000000001')));
  const feed = (await dataGet(env, demo, `/${serverId}/kills?limit=1`)).body;
  t.true(feed.kills[0].weapon.length > 0);
  const online = (await dataGet(env, demo, `/${serverId}/players`)).body;
  t.is(online.count, 6);
  t.like((await dataGet(env, demo, `/${serverId}`)).body, { online: true, map: 'chernarusplus', players: 6 });
  // Everyone played the history's six hours (connect 06:00, disconnect 11:59) from their first heartbeat,
  // a minute in; the online six also the session's 40 minutes.
  const players = await board(env, demo, serverId);
  t.is(players['Ёжик']!.playMinutes, 357);
  t.is(players['Nadia']!.playMinutes, 357);
  t.is(players['Rexx']!.playMinutes, 357 + 39); // 5 h 57 min 55 s and 38 min 50 s
  // The JSON-fed server's players played their stays too.
  for (const p of Object.values(await board(env, demo, demo.servers[1]!.id)))
    t.true(p.playMinutes >= 119, `${p.name}: ${p.playMinutes} min`);
});

test('while the demo runs, both servers stay online with their players listed, and their play time grows', async (t) => {
  const env = await demoEnv(t, { RATE_DATA_STANDARD: '100000' });
  const { demo, live } = await runDemo(t, env, {
    credentials: join(await tempDir(t, 'demo-'), 'credentials.json'),
    dir: await tempDir(t, 'demo-live-'),
  });
  const [logged, fed] = demo.servers.map((s) => s.id) as [string, string];
  const before = await board(env, demo, logged);
  const onlineNames = demoFixture.players
    .slice(0, demoFixture.onlinePlayers)
    .map((p) => p.name)
    .sort();
  // Eleven minutes in steps of 30 s, each waited for until both servers reported it.
  for (let step = 1; step <= 22; step++) {
    env.clock.advance(30_000);
    const now = env.clock.now();
    for (const id of [logged, fed]) {
      const until = Date.now() + 20_000;
      while ((await statusAt(env, id)) < now) {
        if (Date.now() > until) throw new Error(`server ${id} reported nothing at step ${step}`);
        await delay(10);
      }
    }
    for (const id of [logged, fed]) {
      const status = (await dataGet(env, demo, `/${id}`)).body;
      t.like(status, { online: true, players: 6 }, `step ${step}`);
      const names = (await dataGet(env, demo, `/${id}/players`)).body.players.map((p: { name: string }) => p.name).sort();
      t.deepEqual(names, onlineNames, `step ${step}`);
    }
  }
  const after = await board(env, demo, logged);
  for (const name of onlineNames) t.true(after[name]!.playMinutes >= before[name]!.playMinutes + 10, `${name} played on`);
  t.is(after['Ёжик']!.playMinutes, before['Ёжик']!.playMinutes, 'who is not on plays nothing');
  // The game's log went on too: PlayerLists every 5 minutes, each with a kill.
  const text = await readFile(
    join(
      live.logsDir,
      (await readdir(live.logsDir)).find((f) => f.startsWith('DayZServer_x64_2'))!,
    ),
    'utf8',
  );
  t.is(text.match(/##### PlayerList log: 6 players/g)?.length, 3, 'at the start, 5 and 10 minutes in');
  const newest = (await dataGet(env, demo, `/${logged}/kills?limit=1`)).body.kills[0];
  t.true(Date.parse(newest.ts) > env.clock.now() - 10 * 60_000, 'the killfeed shows the live kills first');
});

test('an agent pointed at fixtures/demo-logs after the demo counts nothing twice and leaves no file in fixtures/', async (t) => {
  const env = await demoEnv(t);
  const { demo, stop } = await runDemo(t, env, {
    credentials: join(await tempDir(t, 'demo-'), 'credentials.json'),
    dir: await tempDir(t, 'demo-live-'),
  });
  await stop();
  const server = createApp(env.deps).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const [logged] = demo.servers;
  const stateHome = await tempDir(t, 'demo-agent-state-');
  const before = await board(env, demo, logged!.id);
  // As the printed line runs it: `npm run agent -- ... --logs fixtures/demo-logs --utc-offset +00:00 --once`.
  const options = parseAgentOptions(
    [
      ...['--url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--server', logged!.id, '--token', logged!.ingestToken],
      ...['--logs', demoLogsDir, '--utc-offset', '+00:00', '--once'],
    ],
    { XDG_STATE_HOME: stateHome },
    quiet,
  );
  const report = await new Agent(options).run(new AbortController().signal);
  t.like(report, { accepted: 0, rejected: 0, unparsed: 0 });
  t.true(report.duplicates > 500);
  t.deepEqual(await board(env, demo, logged!.id), before, 'nothing counted twice');
  t.deepEqual((await readdir(demoLogsDir)).sort(), [historyFile, sessionFile], 'no state file beside the committed logs');
  t.is((await readdir(join(stateHome, 'gameservice-agent'))).length, 1, "its state is in the user's state folder");
});

test('what the demo prints works against it: the trust mirror verifies its signed export, the chat bot bans, the store webhook grants', async (t) => {
  const folder = await tempDir(t, 'demo-settings-');
  const settings = demoSettings({}, demoFixture.account.id, {
    settings: join(folder, 'settings.json'),
    trustKey: join(folder, 'trust-key.pem'),
  });
  t.deepEqual(settings.set.sort(), ['JWT_SECRET', 'STORE_PRODUCTS', 'STORE_WEBHOOK_SECRET', 'TRUST_SIGNING_KEY_FILE']);
  const env = await demoEnv(t, settings.env);
  const { demo, live } = await runDemo(t, env, {
    credentials: join(await tempDir(t, 'demo-'), 'credentials.json'),
    dir: await tempDir(t, 'demo-live-'),
  });
  const server = createApp(env.deps).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const printed = demoInstructions(demo, live, 3000, settings);
  t.true(printed.includes(`trust mirror --url http://127.0.0.1:3000 --key ${demo.partnerKey}`));
  t.true(
    printed.includes(
      `CHAT_BOT_SECRET=${demo.chatBot.secret} npm run cli -- chat ban.create --url http://127.0.0.1:3000 --bot ${demo.chatBot.botId}`,
    ),
  );
  t.true(printed.includes(`-hmac '${settings.env.STORE_WEBHOOK_SECRET}'`));

  const mirror = await mirrorToFile(join(folder, 'mirror.json'), { url, key: demo.partnerKey, now: () => env.clock.now() });
  t.like(mirror, { bans: 1 });

  const chat = await callChatAction({
    url,
    secret: demo.chatBot.secret,
    botId: demo.chatBot.botId,
    action: 'ban.create',
    chatUserId: demo.chatBot.chatUserId,
    params: { platformId: '76561198000000042', durationMinutes: 1440 },
    nowSeconds: Math.floor(env.clock.now() / 1000),
  });
  t.is(chat.status, 200, JSON.stringify(chat.body));

  const body = JSON.stringify({ id: 'demo-1', type: 'purchase.completed', platformId: '76561198000000042', sku: 'demo-vip30' });
  const ts = Math.floor(env.clock.now() / 1000);
  const sig = createHmac('sha256', settings.env.STORE_WEBHOOK_SECRET!).update(`${ts}.${body}`).digest('hex');
  const res = await env.request
    .post('/api/store/webhook')
    .set('Content-Type', 'application/json')
    .set('X-Store-Signature', `t=${ts},v1=${sig}`)
    .send(body);
  t.is(res.status, 200, JSON.stringify(res.body));
  t.like(res.body, { outcome: 'processed', granted: 1 });

  // A second start keeps the key and the secrets; what the operator set is left as it is.
  const again = demoSettings({ STORE_PRODUCTS: '{}' }, demoFixture.account.id, {
    settings: join(folder, 'settings.json'),
    trustKey: join(folder, 'trust-key.pem'),
  });
  t.is(again.env.STORE_WEBHOOK_SECRET, settings.env.STORE_WEBHOOK_SECRET);
  t.is(again.env.JWT_SECRET, settings.env.JWT_SECRET);
  t.is(again.env.STORE_PRODUCTS, undefined);
  t.is(statSync(join(folder, 'trust-key.pem')).mode & 0o777, 0o600);
});

test("a database holding an earlier demo's re-timed log history is told so: its first server's kills count twice there", async (t) => {
  const env = await demoEnv(t);
  const credentials = join(await tempDir(t, 'demo-'), 'credentials.json');
  const first = await loadDemo(env.deps, credentials);
  t.false(first.earlierLogHistory);
  // What the earlier demo fed: the history log re-timed to end just before the first run.
  const [logged] = first.servers;
  await ingestBatch(env.deps, logged!.id, { events: [ev.kill(env.clock.now() - 3600_000, 1, 2)] });
  env.clock.advance(60_000);
  const again = await loadDemo(env.deps, credentials);
  t.true(again.earlierLogHistory);
  const caughtUp = {
    lines: 0,
    events: 0,
    skipped: 0,
    unparsed: 0,
    batches: 0,
    sent: 0,
    accepted: 0,
    duplicates: 0,
    rejected: 0,
    retries: 0,
    files: 0,
  };
  const printed = demoInstructions(again, { caughtUp, logsDir: demoLogsDir }, 3000, { env: {}, set: [] });
  t.regex(printed, /those kills count twice\s+here\. For a clean demo, start on a fresh database/);
});
