// GET /api/players/:identifier: every id form finds the player; names seen (a rename keeps the old
// name), per-server totals, sessions and the ten newest kills and deaths; the account's bans and
// queue entries with their audit history; the trust score and pool entries; a player only the
// network knows; unknown and malformed identifiers.
import test from 'ava';
import { battleyeGuidOf, dayzIdOf, legacyOf } from '../../src/identities/id-forms.ts';
import { mergeIntoSteam64 } from '../../src/identities/merge.ts';
import { linkChatUser } from '../../src/trust/player.repo.ts';
import { api, call, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import { userWithRole } from '../helpers/controller.ts';
import { community, events, feed, freshSteam64, profileOf } from './helpers.ts';

const consoleId = (n: number) => `${'C0FFEE'}${String(n).padStart(34, '0')}`;
const snowflake = '1100000000000000000';

test('every id form of a player answers the same profile: ids, names, totals, kills, bans and queue with history, trust, chat ids', async (t) => {
  const env = await envFor(t);
  const c = await community(env);
  const [s1, s2] = c.servers as [(typeof c.servers)[0], (typeof c.servers)[0]];
  const rexx = freshSteam64();
  const mira = freshSteam64();
  const now = env.clock.now();
  await feed(t, env, s1, [
    events.presence('player.connect', now - 600_000, rexx, 'Rexx'),
    events.kill(now - 590_000, [rexx, 'Rexx'], [mira, 'Mira'], { isHeadshot: true }),
    events.kill(now - 580_000, [mira, 'Mira'], [rexx, 'Rexx']),
    events.presence('player.disconnect', now - 570_000, rexx, 'Rexx'),
  ]);
  // A rename on the second server, later: the old name stays in the history with its last sighting.
  await feed(t, env, s2, [events.presence('player.connect', now - 120_000, rexx, 'Rexx')]);
  await feed(t, env, s2, [
    events.presence('player.heartbeat', now - 60_000, rexx, 'RexxTheGreat'),
    events.kill(now - 50_000, [rexx, 'RexxTheGreat'], [mira, 'Mira']),
    events.presence('player.heartbeat', now - 30_000, rexx, 'RexxTheGreat'),
  ]);
  const ban = await call(env, c.moderator, 'post', '/api/bans', { platformId: rexx, reason: 'aimbot' });
  t.is(ban.status, 201);
  t.is((await call(env, c.moderator, 'patch', `/api/bans/${ban.body.id}`, { reason: 'aimbot, twice' })).status, 200);
  const queued = await call(env, c.owner, 'post', '/api/priority-queue', { platformId: dayzIdOf(rexx), comment: 'supporter' });
  t.is(queued.status, 201);
  const removed = await call(env, c.owner, 'post', '/api/priority-queue', { platformId: rexx, serverIds: [s1.id] });
  t.is((await call(env, c.owner, 'delete', `/api/priority-queue/${removed.body.id}`)).status, 204);
  const submission = await call(env, c.owner, 'post', '/api/trust/submissions', {
    banId: ban.body.id,
    category: 'cheating',
    reason: 'seen live',
  });
  t.is(submission.status, 201, JSON.stringify(submission.body));
  const linked = consoleId(1);
  await mergeIntoSteam64(env.deps, linked, rexx);
  await linkChatUser(env.deps.db, snowflake, rexx, new Date(now).toISOString());
  const serviceId = (await env.deps.db.query<{ id: string }>('SELECT service_id AS id FROM players WHERE platform_id = $1', [rexx]))
    .rows[0]!.id;

  const profile = await profileOf(t, env, c.viewer, rexx);
  t.deepEqual(profile.ids, {
    platformId: rexx,
    steam64: rexx,
    steamLegacy: legacyOf(rexx),
    dayzId: dayzIdOf(rexx),
    battleyeGuid: battleyeGuidOf(rexx),
    serviceId,
    consoleIds: [linked],
  });
  t.deepEqual(profile.chatIds, [snowflake]);
  t.true(profile.seenByAccount);
  t.is(profile.lastName, 'RexxTheGreat');
  t.deepEqual(
    profile.names.map((n: { name: string }) => n.name),
    ['RexxTheGreat', 'Rexx'],
  );
  const old = profile.names[1];
  t.is(old.firstSeenAt, new Date(now - 570_000).toISOString(), 'first seen: the newest event of the batch that named the player so');
  t.is(old.lastSeenAt, new Date(now - 120_000).toISOString(), 'last seen under the old name');
  t.is(profile.names[0].lastSeenAt, new Date(now - 30_000).toISOString());
  t.is(profile.firstSeenAt, old.firstSeenAt);
  t.is(profile.lastSeenAt, new Date(now - 30_000).toISOString());

  t.deepEqual(
    profile.servers.map((s: { serverId: string }) => s.serverId),
    [s2.id, s1.id],
    'the most recently seen first',
  );
  const [there, first] = profile.servers;
  t.like(there, { serverName: s2.name, name: 'RexxTheGreat', online: true, totals: { kills: 1, deaths: 0, kd: 1, headshots: 0 } });
  t.like(first, { name: 'Rexx', online: false, totals: { kills: 1, deaths: 1, kd: 1, headshots: 1, playSeconds: 30 } });
  t.deepEqual(
    first.recentKills.map((k: { victimPlatformId: string; isHeadshot: boolean }) => [k.victimPlatformId, k.isHeadshot]),
    [[mira, true]],
  );
  t.deepEqual(
    first.recentDeaths.map((k: { killerPlatformId: string }) => k.killerPlatformId),
    [mira],
  );
  t.deepEqual(first.sessions, [
    { startedAt: new Date(now - 600_000).toISOString(), endedAt: new Date(now - 570_000).toISOString(), ongoing: false },
  ]);
  t.deepEqual(there.sessions, [{ startedAt: new Date(now - 120_000).toISOString(), endedAt: null, ongoing: true }]);

  t.is(profile.bans.length, 1);
  t.like(profile.bans[0].ban, { id: ban.body.id, reason: 'aimbot, twice', active: true });
  t.deepEqual(
    profile.bans[0].history.map((e: { action: string }) => e.action),
    ['ban.update', 'ban.create'],
  );
  t.deepEqual(
    profile.bans[0].history.map((e: { target: { name: string | null } }) => e.target.name),
    [there.name, there.name],
    'each entry names its player, as last seen on the servers (the ban gave no name)',
  );
  t.deepEqual(
    profile.queue.entries.map((e: { comment: string }) => e.comment),
    ['supporter'],
  );
  t.deepEqual(
    profile.queue.history.map((e: { action: string }) => e.action),
    ['queue.remove', 'queue.add', 'queue.add'],
    'a removed entry stays in the history',
  );
  t.is(profile.trust.score.platformId, rexx);
  t.true(profile.trust.score.signals.communities.length >= 1);
  t.deepEqual(
    profile.trust.pool.entries.map((e: { status: string; category: string }) => [e.status, e.category]),
    [['pending', 'cheating']],
  );
  t.is(profile.trust.ownSubmissions, null, 'a viewer lacks trust.submit: no reasons or notes of submissions');
  const asOwner = await profileOf(t, env, c.owner, rexx);
  t.deepEqual(
    asOwner.trust.ownSubmissions.map((s: { id: string; reason: string }) => [s.id, s.reason]),
    [[submission.body.id, 'seen live']],
  );

  for (const identifier of [
    dayzIdOf(rexx),
    battleyeGuidOf(rexx),
    battleyeGuidOf(rexx).toUpperCase(),
    legacyOf(rexx),
    serviceId,
    linked,
    `discord:${snowflake}`,
  ]) {
    const other = await profileOf(t, env, c.viewer, identifier);
    t.is(other.ids.platformId, rexx, identifier);
    t.deepEqual(other.names, profile.names, identifier);
  }
});

test('sessions: a disconnect ends one, a gap longer than the online window ends one at its last presence, across batches too', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 1);
  const s = c.servers[0]!;
  const p = freshSteam64();
  const t0 = env.clock.now() - 3_600_000;
  const at = (s: number) => t0 + s * 1000;
  // One batch: [0, 60] disconnected; [120, 150] then quiet; [400, ...] started after the gap.
  await feed(t, env, s, [
    events.presence('player.connect', at(0), p, 'P'),
    events.presence('player.heartbeat', at(30), p, 'P'),
    events.presence('player.disconnect', at(60), p, 'P'),
    events.presence('player.connect', at(120), p, 'P'),
    events.presence('player.heartbeat', at(150), p, 'P'),
    events.presence('player.heartbeat', at(400), p, 'P'),
  ]);
  // Later batches: the running session continues, then a disconnect ends it; then one after a
  // gap ends at its last presence when the next starts.
  await feed(t, env, s, [events.presence('player.heartbeat', at(460), p, 'P')]);
  await feed(t, env, s, [events.presence('player.disconnect', at(500), p, 'P')]);
  await feed(t, env, s, [events.presence('player.heartbeat', at(600), p, 'P'), events.presence('player.heartbeat', at(650), p, 'P')]);
  await feed(t, env, s, [events.presence('player.connect', at(900), p, 'P')]);
  // A disconnect outside any session (after the gap) starts nothing.
  await feed(t, env, s, [events.presence('player.disconnect', at(1200), p, 'P')]);
  env.clock.set(at(1210));
  const iso = (s: number) => new Date(at(s)).toISOString();
  const profile = await profileOf(t, env, c.viewer, p);
  t.deepEqual(profile.servers[0].sessions, [
    { startedAt: iso(900), endedAt: iso(900), ongoing: false },
    { startedAt: iso(600), endedAt: iso(650), ongoing: false },
    { startedAt: iso(400), endedAt: iso(500), ongoing: false },
    { startedAt: iso(120), endedAt: iso(150), ongoing: false },
    { startedAt: iso(0), endedAt: iso(60), ongoing: false },
  ]);

  // A session running now is ongoing; once the player goes quiet it ended at the last presence.
  env.clock.set(at(2000));
  await feed(t, env, s, [events.presence('player.connect', at(1990), p, 'P'), events.presence('player.heartbeat', at(1995), p, 'P')]);
  const running = await profileOf(t, env, c.viewer, p);
  t.deepEqual(running.servers[0].sessions[0], { startedAt: iso(1990), endedAt: null, ongoing: true });
  t.true(running.servers[0].online);
  env.clock.set(at(2200));
  const quiet = await profileOf(t, env, c.viewer, p);
  t.deepEqual(quiet.servers[0].sessions[0], { startedAt: iso(1990), endedAt: iso(1995), ongoing: false });
  t.false(quiet.servers[0].online);
  t.is(quiet.servers[0].sessions.length, 6);
});

test('the ten newest kills and deaths, newest first, across batches and out of order', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 1);
  const s = c.servers[0]!;
  const p = freshSteam64();
  const foe = freshSteam64();
  const base = env.clock.now() - 3_600_000;
  const kill = (i: number) => events.kill(base + i * 1000, [p, 'P'], [foe, 'Foe'], { weapon: `w${i}` });
  const death = (i: number) => events.kill(base + i * 1000 + 500, [foe, 'Foe'], [p, 'P'], { weapon: `d${i}` });
  await feed(t, env, s, [kill(1), kill(2), kill(3), death(1)]);
  await feed(
    t,
    env,
    s,
    Array.from({ length: 12 }, (_, i) => kill(10 + i)),
  );
  // Older than every kept kill: not among the newest ten.
  await feed(t, env, s, [kill(0), death(0)]);
  // Between kept ones: among them.
  await feed(t, env, s, [kill(15.25), death(2)]);
  // A kill stored a microsecond later than its event's time (another kill holds its slot) is found too.
  await feed(t, env, s, [events.kill(base + 30_000, [foe, 'Foe'], [freshSteam64(), 'X']), kill(30)]);
  const profile = await profileOf(t, env, c.viewer, p);
  const [server] = profile.servers;
  t.deepEqual(
    server.recentKills.map((k: { weapon: string }) => k.weapon),
    ['w30', 'w21', 'w20', 'w19', 'w18', 'w17', 'w16', 'w15.25', 'w15', 'w14'],
  );
  t.deepEqual(
    server.recentDeaths.map((k: { weapon: string }) => k.weapon),
    ['d2', 'd1', 'd0'],
  );
  t.is(server.totals.kills, 18);
});

test('a player only the network knows answers with what is public; an unknown one is 404, a malformed id 400', async (t) => {
  const env = await envFor(t);
  const ours = await community(env, 1);
  const theirs = await community(env, 1);
  const p = freshSteam64();
  await feed(t, env, theirs.servers[0]!, [events.presence('player.connect', env.clock.now() - 1000, p, 'Elsewhere')]);
  const linked = consoleId(2);
  await mergeIntoSteam64(env.deps, linked, p);
  await linkChatUser(env.deps.db, snowflake, p, new Date(env.clock.now()).toISOString());

  const profile = await profileOf(t, env, ours.viewer, p);
  t.false(profile.seenByAccount);
  t.like(profile, { lastName: null, firstSeenAt: null, lastSeenAt: null });
  for (const empty of ['names', 'servers', 'bans', 'notes', 'chatIds'] as const) t.deepEqual(profile[empty], [], empty);
  t.deepEqual(profile.ids.consoleIds, [], 'links other communities made are not shown');
  t.is(profile.ids.dayzId, dayzIdOf(p));
  t.is(profile.trust.score.platformId, p);
  t.false(profile.watch.watched);
  t.false(JSON.stringify(profile).includes('Elsewhere'), "another community's names are not read");

  // The account may still watch such a player; then its record shows what others linked.
  t.is((await api(t, env, ours.moderator, 'post', `/api/players/${p}/watch`)).status, 200);
  const watched = await profileOf(t, env, ours.viewer, p);
  t.true(watched.watch.watched);
  t.deepEqual(watched.ids.consoleIds, [linked]);
  t.deepEqual(watched.chatIds, [snowflake]);

  const unknown = freshSteam64();
  assertError(t, await api(t, env, ours.viewer, 'get', `/api/players/${unknown}`), 404, 'NOT_FOUND', 'unknown Steam64');
  assertError(t, await api(t, env, ours.viewer, 'get', `/api/players/${dayzIdOf(unknown)}`), 404, 'NOT_FOUND', 'unknown DayZ ID');
  assertError(
    t,
    await api(t, env, ours.viewer, 'get', '/api/players/00000000-0000-4000-8000-000000000000'),
    404,
    'NOT_FOUND',
    'unknown service id',
  );
  assertError(t, await api(t, env, ours.viewer, 'get', `/api/players/${'ab'.repeat(16)}`), 404, 'NOT_FOUND', 'unknown GUID');
  for (const bad of ['nobody', '7656119800000000', 'STEAM_7:0:1', 'discord:12', `${'x'.repeat(101)}`, '%00', 'Rexx Smith']) {
    assertError(t, await api(t, env, ours.viewer, 'get', `/api/players/${encodeURIComponent(bad)}`), 400, 'BAD_REQUEST', bad);
  }
  assertError(t, await api(t, env, undefined, 'get', `/api/players/${p}`), 401, 'UNAUTHORIZED');
});

test('a merge of a DayZ-ID player into its Steam64 brings its names, sessions, kills, notes and watch flag along', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 1);
  const s = c.servers[0]!;
  const steam64 = freshSteam64();
  const dayz = dayzIdOf(steam64);
  const foe = freshSteam64();
  const now = env.clock.now();
  await feed(t, env, s, [
    events.presence('player.connect', now - 300_000, dayz, 'Logged'),
    events.kill(now - 290_000, [dayz, 'Logged'], [foe, 'Foe']),
    events.presence('player.disconnect', now - 280_000, dayz, 'Logged'),
  ]);
  t.is((await api(t, env, c.moderator, 'post', `/api/players/${encodeURIComponent(dayz)}/notes`, { body: 'seen teaming' })).status, 201);
  t.is((await api(t, env, c.moderator, 'post', `/api/players/${encodeURIComponent(dayz)}/watch`)).status, 200);
  await feed(t, env, s, [events.presence('player.connect', now - 10_000, steam64, 'Steam')]);

  const profile = await profileOf(t, env, c.viewer, dayz);
  t.is(profile.ids.platformId, steam64, 'the DayZ ID now answers as the Steam64');
  t.deepEqual(profile.names.map((n: { name: string }) => n.name).sort(), ['Logged', 'Steam']);
  t.is(profile.servers[0].sessions.length, 2);
  t.deepEqual(
    profile.servers[0].recentKills.map((k: { killerPlatformId: string }) => k.killerPlatformId),
    [steam64],
  );
  t.deepEqual(
    profile.notes.map((n: { body: string; platformId: string }) => [n.body, n.platformId]),
    [['seen teaming', steam64]],
  );
  t.true(profile.watch.watched);
  const left = await env.deps.db.query(
    `SELECT 'names' FROM player_names WHERE platform_id = $1 UNION ALL SELECT 'sessions' FROM player_sessions WHERE platform_id = $1
     UNION ALL SELECT 'notes' FROM player_notes WHERE platform_id = $1 UNION ALL SELECT 'watch' FROM player_watches WHERE platform_id = $1`,
    [dayz],
  );
  t.is(left.rowCount, 0, 'nothing is left under the DayZ ID');
});

test('roles: every role that reads servers reads profiles; the session is required', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 1);
  const p = freshSteam64();
  await feed(t, env, c.servers[0]!, [events.presence('player.connect', env.clock.now() - 1000, p, 'P')]);
  for (const role of ['owner', 'admin', 'moderator', 'viewer'] as const) {
    const s = role === 'owner' ? c.owner : await userWithRole(env, role, c.owner.accountId);
    t.is((await api(t, env, s, 'get', `/api/players/${p}`)).status, 200, role);
    t.is((await api(t, env, s, 'get', `/api/players?q=${p}`)).status, 200, role);
  }
});
