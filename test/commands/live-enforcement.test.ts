// Live enforcement on the service's side: a ban queues a kick on each of the account's live
// servers ("Banned: <reason>", at most 64 characters), and the active bans an agent holds: every id
// form, its ETag, what leaves the list (lifted, expired), and tenancy.
import test from 'ava';
import { createBan, importBan, removeBan } from '../../src/bans/bans.ts';
import { battleyeGuidOf, dayzIdOf } from '../../src/identities/id-forms.ts';
import { revokeServer } from '../../src/servers/server.ts';
import { api, controllerEnv } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema } from '../helpers/seed.ts';
import { activeBans, community, poll, secondServer } from './helpers.ts';

let env: TestEnv;
test.before(async () => {
  env = await controllerEnv();
});
test.after.always(async () => {
  await env?.close();
});

const actor = { type: 'user' as const, id: null, name: 'test admin' };
let n = 0;
const steam = () => String(76561198300000000n + BigInt(++n));

test('a ban queues a kick on each live server of the account, with "Banned: <reason>" cut to 64 characters; the ban\'s audit counts them', async (t) => {
  const c = await community(env);
  const two = await secondServer(env.deps, c.accountId);
  const gone = await secondServer(env.deps, c.accountId, 'revoked');
  await revokeServer(env.deps, c.accountId, gone.serverId);
  const other = await community(env);
  const player = steam();
  const reason = `Aimbot, caught on video by three admins — ${'очень '.repeat(10)}`;
  const ban = await createBan(env.deps, c.accountId, { platformId: player, reason }, actor);
  for (const s of [c, two]) {
    const handed = await poll(env, s);
    t.is(handed.status, 200);
    const [kick] = handed.body.commands;
    t.like(kick, { kind: 'kick', params: { platformId: player }, requestedBy: { type: 'user', name: 'test admin' } });
    t.is(kick.params.reason, Array.from(`Banned: ${reason}`).slice(0, 64).join(''));
    t.is(Array.from(kick.params.reason as string).length, 64);
  }
  t.is((await poll(env, other)).status, 204, "another community's server kicks nobody");
  const { rows } = await env.deps.db.query<{ details: { kicksQueued: number } }>(
    "SELECT details FROM audit_log WHERE target_id = $1 AND action = 'ban.create'",
    [ban.id],
  );
  t.is(rows[0]!.details.kicksQueued, 2);
  t.is((await env.deps.db.query('SELECT 1 FROM server_commands WHERE server_id = $1', [gone.serverId])).rowCount, 0);
});

test('a ban without a reason kicks with "Banned"; a ban made over HTTP and an imported ban kick too', async (t) => {
  const c = await community(env);
  const player = steam();
  const made = await api(t, env, c.owner, 'post', '/api/bans', { platformId: player });
  t.is(made.status, 201);
  t.like((await poll(env, c)).body.commands[0].params, { platformId: player, reason: 'Banned' });
  const other = await community(env);
  const imported = await importBan(env.deps, other.accountId, made.body.id, actor);
  t.truthy(imported);
  t.like((await poll(env, other)).body.commands[0], { kind: 'kick', params: { platformId: player, reason: 'Banned' } });
});

test('the active bans: every id form, reason and expiry; ETag answers 304 until a ban is made, lifted or runs out', async (t) => {
  const c = await community(env);
  const s64 = steam();
  const orphanDayz = dayzIdOf(steam());
  const xbox = 'D0B9EDC7A5238AB0A559C250E9849B23D2629915';
  const permanent = await createBan(env.deps, c.accountId, { platformId: s64, reason: 'aimbot' }, actor);
  const timed = await createBan(env.deps, c.accountId, { platformId: orphanDayz, durationMinutes: 10 }, actor);
  const consoleBan = await createBan(env.deps, c.accountId, { platformId: xbox, reason: 'dupe' }, actor);
  const lifted = await createBan(env.deps, c.accountId, { platformId: steam() }, actor);
  await removeBan(env.deps, c.accountId, lifted.id, actor);
  await createBan(env.deps, (await community(env)).accountId, { platformId: steam() }, actor);

  const first = await activeBans(env, c);
  t.is(first.status, 200);
  t.is(first.headers['content-type'], 'application/json; charset=utf-8');
  assertSchema(t, 'active-bans.json', first.body);
  const byId = new Map((first.body.bans as { banId: string }[]).map((b) => [b.banId, b]));
  t.deepEqual([...byId.keys()].sort(), [permanent.id, timed.id, consoleBan.id].sort());
  t.deepEqual(byId.get(permanent.id), {
    banId: permanent.id,
    platformId: s64,
    steam64: s64,
    dayzId: dayzIdOf(s64),
    beGuid: battleyeGuidOf(s64),
    reason: 'aimbot',
    expiresAt: null,
  });
  t.like(byId.get(timed.id), {
    platformId: orphanDayz,
    steam64: null,
    dayzId: orphanDayz,
    beGuid: null,
    reason: null,
    expiresAt: new Date(env.clock.now() + 600_000).toISOString(),
  });
  t.like(byId.get(consoleBan.id), { platformId: xbox, steam64: null, dayzId: null, beGuid: null });

  const etag = first.headers.etag as string;
  t.regex(etag, /^"[A-Za-z0-9_-]{27}"$/);
  const same = await activeBans(env, c, etag);
  t.is(same.status, 304);
  t.is(same.text, '');
  t.is((await activeBans(env, c, `W/${etag}, "other"`)).status, 304, 'a weak or listed tag matches too');
  t.is((await activeBans(env, c, '"stale"')).status, 200);

  await removeBan(env.deps, c.accountId, consoleBan.id, actor);
  const afterLift = await activeBans(env, c, etag);
  t.is(afterLift.status, 200);
  t.is(afterLift.body.bans.length, 2);
  env.clock.advance(10 * 60_000);
  const afterExpiry = await activeBans(env, c, afterLift.headers.etag as string);
  t.deepEqual(
    afterExpiry.body.bans.map((b: { banId: string }) => b.banId),
    [permanent.id],
  );
  env.clock.advance(-10 * 60_000);
});

test("the active bans need the server's own ingest token, and a live server", async (t) => {
  const c = await community(env);
  const other = await community(env);
  assertError(t, await activeBans(env, { serverId: c.serverId, token: other.token }), 401, 'UNAUTHORIZED');
  assertError(
    t,
    await env.request.get(`/api/servers/${c.serverId}/bans/active`).set('Authorization', `Bearer ${c.owner.token}`),
    401,
    'UNAUTHORIZED',
  );
  await revokeServer(env.deps, c.accountId, c.serverId);
  assertError(t, await activeBans(env, c), 401, 'UNAUTHORIZED');
});
