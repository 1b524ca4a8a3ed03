import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { registerServer } from '../../src/servers/server.ts';
import { insertBan } from '../../src/bans/ban.repo.ts';
import { recordBanFileSync } from '../helpers/ban-files.ts';
import { battleyeGuidOf, dayzIdOf } from '../../src/identities/id-forms.ts';
import { upsertMergedPlayer } from '../../src/identities/identity.repo.ts';
import { IdentityLinkError, learnSteam64, mergeIntoSteam64 } from '../../src/identities/merge.ts';
import { resolvePlatformId } from '../../src/identities/resolve.ts';
import { decideEntry, submitToPool } from '../../src/trust/pool.ts';
import { trustLookup } from '../../src/trust/lookup.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ingest, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import type { LeaderboardEntry } from '../../src/stats/ranking.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

// The reference's test vector (reference/dayz-formats.md).
const vectorSteam64 = '76561197970002375';
const vectorDayzId = 'hYJaNGoMDv2QEno2R7tXKUSj8eXefMiv_UvAF_EUKto=';
const xbox = 'D0B9EDC7A5238AB0A559C250E9849B23D2629915';

/** A fresh Steam64 per test, so tests sharing the environment never share a player. */
let next = 0;
const freshSteam64 = () => String(76561198100000000n + BigInt(process.pid % 1000) * 100000n + BigInt(++next));

const iso = (ms: number) => new Date(ms).toISOString();
const who = (platformId: string, name: string) => ({ platformId, name });
const kill = (tsMs: number, killer: { platformId: string; name: string }, victim: { platformId: string; name: string }, extra = {}) => ({
  id: randomUUID(),
  type: 'kill',
  ts: tsMs,
  killer,
  victim,
  weapon: 'M4A1',
  distance: 100,
  isHeadshot: false,
  ...extra,
});
const presence = (type: string, tsMs: number, p: { platformId: string; name: string }) => ({ id: randomUUID(), type, ts: tsMs, ...p });

async function ok(t: ExecutionContext, a: Pick<Tenant, 'serverId' | 'token'>, events: unknown[]) {
  const res = await ingest(env, a, events);
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(res.body.rejected, [], JSON.stringify(res.body.rejected));
  return res.body as { accepted: number };
}

async function board(t: ExecutionContext, a: Tenant, serverId = a.serverId): Promise<Record<string, LeaderboardEntry>> {
  const res = await dataGet(env, a, `/servers/${serverId}/leaderboard?limit=100`);
  t.is(res.status, 200);
  assertSchema(t, 'leaderboard-page.json', res.body);
  return Object.fromEntries((res.body.players as LeaderboardEntry[]).map((p) => [p.platformId, p]));
}

test('the reference vector: a DayZ ID is computed from its Steam64', (t) => {
  t.is(dayzIdOf(vectorSteam64), vectorDayzId);
});

test('ingestion accepts a Steam64, a DayZ ID and a console id; refuses other ids and Steam64s out of range', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const accepted = await ok(t, a, [
    presence('player.connect', now, who(xbox, 'Box')),
    presence('player.connect', now, who(dayzIdOf('76561198011111111'), 'Pc')),
  ]);
  t.is(accepted.accepted, 2);
  const bad = [
    'p1',
    '7656119800000001',
    '76561197960265727',
    '76561202255233024',
    'd0b9edc7a5238ab0a559c250e9849b23d2629915',
    `${vectorDayzId.slice(0, 43)}`,
    'STEAM_0:1:1',
  ];
  const res = await ingest(
    env,
    a,
    bad.map((id) => presence('player.connect', now, who(id, 'x'))),
  );
  t.is(res.status, 200);
  t.deepEqual(
    res.body.rejected.map((r: { index: number }) => r.index),
    bad.map((_, i) => i),
  );
  t.regex(res.body.rejected[2].error, /range/);
});

test('an unknown DayZ ID is a player of its own; a DayZ ID of a known Steam64 is stored under the Steam64', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const known = freshSteam64();
  const unknownDayz = dayzIdOf(freshSteam64());
  await ok(t, a, [presence('player.connect', now - 60_000, who(known, 'Known'))]);
  await ok(t, a, [kill(now - 30_000, who(dayzIdOf(known), 'Known'), who(unknownDayz, 'Stranger'))]);
  const players = await board(t, a);
  t.is(players[known]?.kills, 1);
  t.is(players[unknownDayz]?.deaths, 1);
  t.is(players[dayzIdOf(known)], undefined);
  const feed = await dataGet(env, a, `/servers/${a.serverId}/kills`);
  assertSchema(t, 'killfeed-page.json', feed.body);
  t.is(feed.body.kills[0].killerPlatformId, known);
  t.is(feed.body.kills[0].victimPlatformId, unknownDayz);
});

/** A DayZ-ID player with history on two servers of one account: kills on both sides, play time, a ban. */
async function dayzHistory(t: ExecutionContext) {
  const a = await tenant(env.deps);
  const second = await registerServer(env.deps, a.accountId, { name: 'second' });
  const b = { serverId: second.server.id, token: second.ingestToken };
  const steam64 = freshSteam64();
  const dayz = dayzIdOf(steam64);
  const other = who(freshSteam64(), 'Other');
  const now = env.clock.now();
  await ok(t, a, [
    presence('player.connect', now - 80_000, who(dayz, 'OldName')),
    kill(now - 70_000, who(dayz, 'OldName'), other, { isHeadshot: true, distance: 250 }),
    kill(now - 60_000, other, who(dayz, 'OldName')),
    presence('player.heartbeat', now - 20_000, who(dayz, 'NewName')),
  ]);
  await ok(t, b, [kill(now - 50_000, who(dayz, 'OnB'), other, { distance: 50 })]);
  await insertBan(env.deps.db, a.accountId, { platformId: dayz, source: 'manual', reason: 'cheating' });
  await recordBanFileSync(env.deps.db, a.accountId, [a.serverId], now);
  return { a, b, steam64, dayz, other, now };
}

async function assertMerged(
  t: ExecutionContext,
  h: Awaited<ReturnType<typeof dayzHistory>>,
  steam64Totals: { kills: number; deaths: number },
) {
  const { a, b, steam64, dayz } = h;
  const onA = await board(t, a);
  t.is(onA[dayz], undefined, 'the DayZ ID is gone from the leaderboard');
  t.like(onA[steam64], { name: 'NewName', ...steam64Totals, headshots: 1 });
  const onB = await board(t, a, b.serverId);
  t.like(onB[steam64], { kills: 1, deaths: 0, name: 'OnB' });
  t.is(onB[dayz], undefined);
  const feed = await dataGet(env, a, `/servers/${a.serverId}/kills`);
  const sides = feed.body.kills.flatMap((k: { killerPlatformId: string; victimPlatformId: string }) => [
    k.killerPlatformId,
    k.victimPlatformId,
  ]);
  t.false(sides.includes(dayz));
  t.is(sides.filter((id: string) => id === steam64).length, 2);
  const online = await dataGet(env, a, `/servers/${a.serverId}/players`);
  assertSchema(t, 'online-players.json', online.body);
  t.deepEqual(
    online.body.players.map((p: { platformId: string }) => p.platformId),
    [steam64],
  );
  const bans = await dataGet(env, a, `/servers/${a.serverId}/bans`);
  t.deepEqual(
    bans.body.bans.map((x: { platformId: string }) => x.platformId),
    [steam64],
  );
  const { rows } = await env.deps.db.query(
    'SELECT play_seconds AS "playSeconds" FROM server_players WHERE platform_id = $1 AND server_id = $2',
    [steam64, a.serverId],
  );
  t.is(rows[0].playSeconds, 60);
}

test('an ingested event carrying the Steam64 merges its DayZ-ID player: totals, kills on both sides, play time, online window, bans', async (t) => {
  const h = await dayzHistory(t);
  // The Steam64 arrives (a mod, a store purchase, a chat link...) with a death of its own.
  await ok(t, h.a, [{ id: randomUUID(), type: 'death', ts: h.now - 10_000, platformId: h.steam64, name: 'NewName', cause: 'fall' }]);
  await assertMerged(t, h, { kills: 1, deaths: 2 });
  const audit = await env.deps.db.query(
    `SELECT actor_type AS "actorType", account_id AS "accountId", details FROM audit_log WHERE action = 'player.merged' AND target_id = $1`,
    [h.steam64],
  );
  t.is(audit.rows.length, 1);
  t.like(audit.rows[0], { actorType: 'system', accountId: h.a.accountId, details: { from: h.dayz, into: h.steam64 } });
  // Afterwards the DayZ ID resolves to the Steam64.
  await ok(t, h.a, [kill(h.now - 5_000, who(h.dayz, 'NewName'), h.other)]);
  t.is((await board(t, h.a))[h.steam64]?.kills, 2);
});

test('the merge an admin or a ban triggers is idempotent and audited once', async (t) => {
  const h = await dayzHistory(t);
  const first = await mergeIntoSteam64(env.deps, h.dayz, h.steam64, { type: 'system' });
  t.true(first.merged);
  t.deepEqual(first.servers.sort(), [h.a.serverId, h.b.serverId].sort());
  const again = await mergeIntoSteam64(env.deps, h.dayz, h.steam64, { type: 'system' });
  t.deepEqual(again, { merged: false, servers: [] });
  await assertMerged(t, h, { kills: 1, deaths: 1 });
  const audit = await env.deps.db.query(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'player.merged' AND target_id = $1`, [
    h.steam64,
  ]);
  t.is(audit.rows[0].n, 1);
  const player = await env.deps.db.query('SELECT name, dayz_id AS "dayzId" FROM players WHERE platform_id = $1', [h.steam64]);
  t.deepEqual(player.rows, [{ name: 'NewName', dayzId: h.dayz }]);
});

test("a merge moves the DayZ ID's pool entries to the Steam64 (to the end of the export feed) and drops both cached scores", async (t) => {
  const h = await dayzHistory(t);
  const entry = await submitToPool(
    env.deps,
    { accountId: h.a.accountId, userId: randomUUID() },
    { platformId: h.dayz, category: 'cheating', reason: 'aimbot', evidence: [] },
  );
  await decideEntry(env.deps, entry.id, 'approve');
  const before = await env.deps.db.query('SELECT change_xid::text AS x FROM trust_entries WHERE id = $1', [entry.id]);
  // The Steam64 became known elsewhere (its own players row) before the merge ran.
  await upsertMergedPlayer(
    env.deps.db,
    { platformId: h.steam64, name: 'Known', firstSeenAt: iso(h.now), lastSeenAt: iso(h.now) },
    h.dayz,
    battleyeGuidOf(h.steam64),
  );
  const cleanScore = JSON.parse((await trustLookup(env.deps, h.steam64)).body.toString()) as { signals: { bansActive: number } };
  t.is(cleanScore.signals.bansActive, 0, 'the Steam64 alone has no entry yet (and its score is now cached)');
  await mergeIntoSteam64(env.deps, h.dayz, h.steam64, { type: 'system' });
  const after = await env.deps.db.query('SELECT platform_id AS p, change_xid::text AS x FROM trust_entries WHERE id = $1', [entry.id]);
  t.is(after.rows[0].p, h.steam64);
  t.true(BigInt(after.rows[0].x) > BigInt(before.rows[0].x), 'the moved entry is a new change of the feed');
  const merged = JSON.parse((await trustLookup(env.deps, h.steam64)).body.toString()) as {
    platformId: string;
    signals: { bansActive: number };
  };
  t.like(merged, { platformId: h.steam64, signals: { bansActive: 1 } }, 'the cached clean score was dropped');
  t.is(JSON.parse((await trustLookup(env.deps, h.dayz)).body.toString()).platformId, h.steam64, 'the DayZ ID answers as the Steam64');
});

test('a console id linked to a Steam64 is merged, and its later events land under the Steam64', async (t) => {
  const a = await tenant(env.deps);
  const steam64 = freshSteam64();
  const consoleId = randomUUID().replaceAll('-', '').toUpperCase().padEnd(40, 'A');
  const now = env.clock.now();
  await ok(t, a, [kill(now - 30_000, who(consoleId, 'Boxer'), who(freshSteam64(), 'V'))]);
  t.true((await mergeIntoSteam64(env.deps, consoleId, steam64, { type: 'user', id: 'u1', name: 'admin' })).merged);
  await ok(t, a, [kill(now - 20_000, who(consoleId, 'Boxer'), who(freshSteam64(), 'W'))]);
  const players = await board(t, a);
  t.is(players[steam64]?.kills, 2);
  t.is(players[consoleId], undefined);
});

test('a merge refuses a DayZ ID of another Steam64 and ids that are no Steam64', async (t) => {
  await t.throwsAsync(mergeIntoSteam64(env.deps, dayzIdOf(freshSteam64()), freshSteam64()), { instanceOf: IdentityLinkError });
  await t.throwsAsync(mergeIntoSteam64(env.deps, vectorDayzId, '12345'), { instanceOf: IdentityLinkError });
  await t.throwsAsync(mergeIntoSteam64(env.deps, 'not-an-id', vectorSteam64), { instanceOf: IdentityLinkError });
});

test('learnSteam64 (what a ban naming a Steam64 calls) merges its DayZ-ID player, and is a no-op otherwise', async (t) => {
  const h = await dayzHistory(t);
  t.deepEqual(await learnSteam64(env.deps, freshSteam64()), { merged: false, servers: [] });
  t.deepEqual(await learnSteam64(env.deps, 'not-a-steam64'), { merged: false, servers: [] });
  t.true((await learnSteam64(env.deps, h.steam64, { type: 'user', id: 'u1', name: 'mod' })).merged);
  await assertMerged(t, h, { kills: 1, deaths: 1 });
  const audit = await env.deps.db.query(
    `SELECT actor_type AS "actorType", actor_name AS "actorName" FROM audit_log WHERE action = 'player.merged' AND target_id = $1`,
    [h.steam64],
  );
  t.deepEqual(audit.rows, [{ actorType: 'user', actorName: 'mod' }]);
  t.false((await learnSteam64(env.deps, h.steam64)).merged);
});

test('a merge racing batches under the DayZ ID and under the Steam64 on two servers: every batch answers 200, nothing is lost or left behind', async (t) => {
  const h = await dayzHistory(t);
  const servers = [h.a, h.b];
  const batches: Promise<{ status: number }>[] = [];
  let expectedKills = 2; // one kill on each server from the history
  for (let i = 0; i < 12; i++) {
    const server = servers[i % 2]!;
    const killer = i % 3 === 0 ? who(h.steam64, 'NewName') : who(h.dayz, 'NewName');
    expectedKills += 1;
    batches.push(ingest(env, server, [kill(h.now - 40_000 + i * 100, killer, who(freshSteam64(), `V${i}`))]).then((r) => r));
    if (i === 5) batches.push(learnSteam64(env.deps, h.steam64).then(() => ({ status: 200 })));
  }
  const statuses = (await Promise.all(batches)).map((r) => r.status);
  t.deepEqual(
    statuses,
    statuses.map(() => 200),
  );
  const rows = await env.deps.db.query<{ platformId: string; kills: number }>(
    'SELECT platform_id AS "platformId", kills FROM server_players WHERE platform_id = ANY($1) ORDER BY platform_id',
    [[h.dayz, h.steam64]],
  );
  t.true(
    rows.rows.every((r) => r.platformId === h.steam64),
    'no totals left under the DayZ ID',
  );
  t.is(
    rows.rows.reduce((sum, r) => sum + r.kills, 0),
    expectedKills,
  );
  const left = await env.deps.db.query('SELECT count(*)::int AS n FROM kills WHERE killer_platform_id = $1 OR victim_platform_id = $1', [
    h.dayz,
  ]);
  t.is(left.rows[0].n, 0);
  const onA = await board(t, h.a);
  t.is(onA[h.dayz], undefined);
});

test('resolvePlatformId: a DayZ ID of a known Steam64 and a linked console id give the Steam64; others are themselves', async (t) => {
  const a = await tenant(env.deps);
  const known = freshSteam64();
  await ok(t, a, [presence('player.connect', env.clock.now(), who(known, 'K'))]);
  t.is(await resolvePlatformId(env.deps.db, dayzIdOf(known)), known);
  t.is(await resolvePlatformId(env.deps.db, known), known);
  const unknown = dayzIdOf(freshSteam64());
  t.is(await resolvePlatformId(env.deps.db, unknown), unknown);
  const consoleId = 'ABCDEF0123456789ABCDEF0123456789ABCDEF01';
  t.is(await resolvePlatformId(env.deps.db, consoleId), consoleId);
  await mergeIntoSteam64(env.deps, consoleId, known, { type: 'system' });
  t.is(await resolvePlatformId(env.deps.db, consoleId), known);
});
