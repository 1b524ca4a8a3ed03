// npm run demo, run twice: the same API key and ingest tokens are shown again (nothing minted or
// rotated), every demo server's token works, and nothing is counted twice.
import test from 'ava';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { demoLogTemplate, loadDemo } from '../../src/demo/load-demo.ts';
import { historyFile, retime, sessionFile, templateNewestMs } from '../../src/demo/demo-log.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { demoInstructions } from '../../src/demo/instructions.ts';
import { testEnv } from '../helpers/env.ts';
import { ev, ingest } from '../helpers/seed.ts';
import { tempDirSync } from '../helpers/temp-dir.ts';

test('a re-run of the demo reuses its key and tokens; each printed token works', async (t) => {
  const env = await testEnv();
  t.teardown(env.close);
  const file = join(tempDirSync(t, 'demo-'), 'credentials.json');
  const first = await loadDemo(env.deps, file);
  const leaderboard = (
    await env.request.get(`/api/v1/data/servers/${first.servers[0]!.id}/leaderboard?limit=100`).set('X-Service-Api-Key', first.apiKey)
  ).body;
  env.clock.advance(60_000); // a later run: its session log is a new file
  const second = await loadDemo(env.deps, file);
  t.deepEqual({ ...second, agent: undefined }, { ...first, agent: undefined }, 'the same account, key and tokens');
  t.is(second.agent.sent, first.agent.sent, 'the agent read the same log again');
  t.true(second.agent.duplicates > 400, 'the history counted once');
  t.true(second.agent.accepted > 0 && second.agent.accepted < 40, 'only the session (presence) is new');
  const keys = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [first.accountId]);
  t.is(keys.rows[0]!.n, 1, 'no second key minted');
  const again = (
    await env.request.get(`/api/v1/data/servers/${first.servers[0]!.id}/leaderboard?limit=100`).set('X-Service-Api-Key', first.apiKey)
  ).body;
  t.deepEqual(
    again.players.map((p: { kills: number }) => p.kills),
    leaderboard.players.map((p: { kills: number }) => p.kills),
    'nothing counted twice',
  );
  const printed = demoInstructions(second, 3000);
  t.is(second.servers.length, 2);
  // The printed dashboard sign-in works, and is the same on a re-run.
  t.true(printed.includes(`Dashboard: http://127.0.0.1:3000/  (sign in as demo-admin / ${second.admin.password}`));
  const login = await env.request.post('/api/auth/login').send({ username: second.admin.username, password: second.admin.password });
  t.is(login.status, 200);
  t.true(second.admin.operator, "on a fresh database the demo community is the operator's");
  // The banned player of the printed public page has the demo community's approved pool entry.
  t.true(printed.includes(`/p/${second.poolPlayer}`));
  const entries = await env.request.get(`/api/v1/trust/${second.poolPlayer}/entries`);
  t.deepEqual(
    entries.body.entries.map((e: { community: string; status: string }) => [e.community, e.status]),
    [['Demo Community', 'active']],
  );
  // A day of status samples for the chart, stored once however often the demo runs.
  const samples = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM server_metrics WHERE server_id = $1', [
    second.servers[1]!.id,
  ]);
  t.true(samples.rows[0]!.n >= 144 && samples.rows[0]!.n <= 147, `${samples.rows[0]!.n} samples`);
  for (const server of second.servers) {
    t.true(printed.includes(server.ingestToken), `the token of ${server.name} is printed`);
    t.is((await ingest(env, { serverId: server.id, token: server.ingestToken }, [ev.status(env.clock.now())])).status, 200);
  }
  // A fresh clone against the same database (no saved credentials, a day later): its history is
  // the same events again.
  const kills = async () =>
    (
      await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM kills WHERE server_id = ANY($1::uuid[])', [
        second.servers.map((s) => s.id),
      ])
    ).rows[0]!.n;
  const killsBefore = await kills();
  env.clock.advance(24 * 3600_000);
  const clone = await loadDemo(env.deps, join(tempDirSync(t, 'demo-'), 'credentials.json'));
  t.true(clone.agent.duplicates > 400, 'the history counted once');
  const fromClone = (
    await env.request.get(`/api/v1/data/servers/${first.servers[0]!.id}/leaderboard?limit=100`).set('X-Service-Api-Key', clone.apiKey)
  ).body;
  t.deepEqual(
    fromClone.players.map((p: { kills: number }) => p.kills),
    leaderboard.players.map((p: { kills: number }) => p.kills),
    'nothing counted twice',
  );
  t.is(await kills(), killsBefore, 'no kill of either server stored twice');
});

test('the demo logs in fixtures/ are what the generator writes from the demo fixture', (t) => {
  const { history, session } = demoLogTemplate();
  t.is(readFileSync(new URL(`../../fixtures/demo-logs/${historyFile}`, import.meta.url), 'utf8'), history);
  t.is(readFileSync(new URL(`../../fixtures/demo-logs/${sessionFile}`, import.meta.url), 'utf8'), session);
});

test('re-timing moves every line and header by the shift, keeping byte lengths (and so event ids)', (t) => {
  const { session } = demoLogTemplate();
  const shifted = retime(session, 13 * 3600_000 + 61_000);
  t.is(Buffer.byteLength(shifted), Buffer.byteLength(session));
  t.regex(shifted, /AdminLog started on 2026-01-02 at 01:01:01/);
  t.regex(shifted, /^01:11:01 \| #####$/m);
  t.is(templateNewestMs(session), Date.parse('2026-01-01T12:10:00Z'));
});

test('the demo server is fed by the agent from the DayZ log: leaderboard, killfeed and online players come from it', async (t) => {
  const env = await testEnv();
  t.teardown(env.close);
  const file = join(tempDirSync(t, 'demo-'), 'credentials.json');
  const demo = await loadDemo(env.deps, file);
  t.like(demo.agent, { unparsed: 0, rejected: 0 });
  t.true(demo.agent.sent > 400);
  const serverId = demo.servers[0]!.id;
  const get = (path: string) => env.request.get(`/api/v1/data/servers/${serverId}${path}`).set('X-Service-Api-Key', demo.apiKey);
  const board = (await get('/leaderboard?limit=100')).body;
  const ids = board.players.map((p: { platformId: string }) => p.platformId);
  // Players whose Steam64 the service knows are shown by it; the log-only ones by their DayZ ID.
  t.true(ids.includes('76561198000000001'));
  t.true(ids.includes(dayzIdOf('76561198000000101')));
  t.false(ids.includes(dayzIdOf('76561198000000001')));
  const feed = (await get('/kills?limit=1')).body;
  t.true(feed.kills[0].weapon.length > 0);
  const online = (await get('/players')).body;
  t.is(online.count, 6);
  const status = (await get('')).body;
  t.like(status, { online: true, map: 'chernarusplus' });
});
